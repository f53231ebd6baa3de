import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type PgInstance, startPgInstance } from "./support/pg-instances.ts";
import { scratchSchema } from "./support/postgres.ts";

// B3 across instances on the real PostgreSQL: two in-process API instances on one schema race
// the same command id; the binding is enforced where the id is claimed, under the log lock.

let a: PgInstance;
let b: PgInstance;
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  const database = await scratchSchema();
  const codex = createScriptedProvider({ provider: "codex" });
  a = await startPgInstance({ id: "A", url: database.url, codex, leaseTtlMs: 5_000 });
  b = await startPgInstance({ id: "B", url: database.url, codex, leaseTtlMs: 5_000 });
  cleanups.push(() => database.drop());
});

afterEach(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("B3: one command id raced on two instances [postgres]", () => {
  it("B3: different payloads under one id sent to both instances at once: one applies, the other is CONFLICT, nothing else is appended", async () => {
    const { projectId } = await a.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: process.cwd(),
      // Skein's own checkout: its threads never get worktrees of it (issue 26).
      settings: { threadWorkspace: "local" },
    });
    const [first, second] = await Promise.all(
      [a, b].map((on) => on.client.thread.create.mutate({ projectId, provider: "codex" })),
    );
    for (let round = 0; round < 5; round += 1) {
      const commandId = `cmd_race_${round}`;
      const outcomes = await Promise.allSettled([
        a.client.thread.sendMessage.mutate({
          threadId: first!.threadId,
          text: `on A ${round}`,
          commandId,
        }),
        b.client.thread.sendMessage.mutate({
          threadId: second!.threadId,
          text: `on B ${round}`,
          commandId,
        }),
      ]);
      const applied = outcomes.filter((o) => o.status === "fulfilled");
      expect(applied).toHaveLength(1);
      const lost = outcomes.findIndex((o) => o.status === "rejected");
      const refused = await refusal(
        (lost === 0 ? a : b).client.thread.sendMessage.mutate({
          threadId: (lost === 0 ? first : second)!.threadId,
          text: `on ${lost === 0 ? "A" : "B"} ${round}`,
          commandId,
        }),
      );
      expect(refused).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
      expect(refused.message).toContain("thread.sendMessage");
      const rejected = outcomes[lost] as PromiseRejectedResult;
      expect(String(rejected.reason)).toMatch(/already used by thread\.sendMessage/);
      const events = (await a.store.readAll(0)).filter((e) => e.commandId === commandId);
      expect(new Set(events.map((e) => e.streamId)).size).toBe(1);
      const runId = (applied[0] as PromiseFulfilledResult<{ runId: string }>).value.runId;
      await (lost === 0 ? b : a).orchestrator.waitForRun(runId);
    }
  }, 60_000);
});
