import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ProviderAdapter, ProviderSessionHandle } from "@skein/domain/provider";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../index.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A scripted Codex whose runtime refuses the next `refusals` turns it is asked to start. */
function refusingProvider(refusals: { count: number }): ProviderAdapter {
  const real = createScriptedProvider({ provider: "codex" });
  return {
    ...real,
    async openSession(input) {
      const session = await real.openSession(input);
      return new Proxy(session, {
        get(target, key, receiver) {
          if (key !== "startTurn") return Reflect.get(target, key, receiver);
          return (...args: Parameters<ProviderSessionHandle["startTurn"]>) => {
            if (refusals.count > 0) {
              refusals.count -= 1;
              throw new Error("thread is busy with another turn");
            }
            return target.startTurn(...args);
          };
        },
      });
    },
  };
}

async function setup(refusals: { count: number }) {
  const dataDir = mkdtempSync(join(tmpdir(), "skein-turn-start-"));
  const workspaceRoot = mkdtempSync(join(tmpdir(), "skein-turn-start-ws-"));
  const store = openSqliteEventStore({ dataDir });
  const orchestrator: Orchestrator = await createOrchestrator({
    store,
    adapters: { codex: refusingProvider(refusals) },
    dataDir,
    sessionIdleMs: 0,
  });
  cleanups.push(async () => {
    await orchestrator.shutdown();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspaceRoot, { recursive: true, force: true });
  });
  const { projectId } = await orchestrator.createProject({ name: "p", workspaceRoot });
  const { threadId } = await orchestrator.createThread({ projectId });
  const send = async (text: string) => {
    const { runId } = await orchestrator.sendMessage({ threadId, text });
    await orchestrator.waitForRun(runId);
    return (await orchestrator.repository.thread(threadId)).runs.get(runId)!;
  };
  return { send };
}

describe("a provider that refuses to start the turn", () => {
  it("B1: the run fails once with the provider's reason in words; the next message works", async () => {
    const { send } = await setup({ count: 1 });
    const refused = await send("hello");
    expect(refused.status).toBe("failed");
    expect(refused.error).toBe(
      "The Codex turn failed: thread is busy with another turn. Send the message again; if it " +
        "keeps failing, provider status and the server log say more.",
    );
    expect((await send("again")).status).toBe("completed");
  });
});
