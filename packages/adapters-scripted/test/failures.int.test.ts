import { execFileSync } from "node:child_process";
import { anthropicErrorReply, anthropicTextReply, closedLoopbackUrl } from "@skein/fake-models";
import type { ProviderSessionHandle, RuntimeEvent } from "@skein/domain/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createScriptedAdapter } from "../src/index.ts";
import { createScriptedHarness, type ScriptedHarness } from "./support/scripted-harness.ts";

let world: ScriptedHarness;
const sessions: ProviderSessionHandle[] = [];
beforeEach(async () => {
  world = await createScriptedHarness();
});
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await world.dispose();
});

async function session(env: Record<string, string> = {}) {
  const adapter = createScriptedAdapter({ env: { ...world.env, ...env } });
  const opened = await adapter.openSession({ providerSessionId: "pss_failures", cwd: world.cwd });
  sessions.push(opened);
  const settings = { cwd: world.cwd, runtimeMode: "full-access" as const };
  const { nativeThreadRef } = await opened.startThread(settings);
  /** Runs one turn; `onEvent` sees each event as it comes. */
  const turn = async (onEvent?: (event: RuntimeEvent) => void) => {
    const events: RuntimeEvent[] = [];
    for await (const event of opened.startTurn(nativeThreadRef, { text: "go" }, { settings })
      .events) {
      events.push(event);
      onEvent?.(event);
    }
    return events;
  };
  return { opened, turn };
}

function lastOf(events: RuntimeEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "turn.completed") throw new Error("the turn did not end with turn.completed");
  return last;
}

describe("B2: the scripted agent's failures, on its real runtime", () => {
  it("a 401 from the model service is auth, in its words", async () => {
    world.server.enqueue(anthropicErrorReply(401, "invalid x-api-key"));
    const { turn } = await session();
    const completed = lastOf(await turn());
    expect(completed.status).toBe("failed");
    expect(completed.failure).toEqual({ kind: "auth", message: "invalid x-api-key" });
  });

  it("a model service that cannot be reached is network", async () => {
    const { turn } = await session({ ANTHROPIC_BASE_URL: await closedLoopbackUrl() });
    const completed = lastOf(await turn());
    expect(completed.status).toBe("failed");
    expect(completed.failure?.kind).toBe("network");
  });

  it("the runtime dying mid-turn is runtime_crashed; the open reply is closed before the turn ends", async () => {
    world.server.enqueue(
      anthropicTextReply("tick ".repeat(40), { chunkSize: 5, chunkDelayMs: 100 }),
    );
    const { opened, turn } = await session();
    let killed = false;
    const events = await turn((event) => {
      if (event.type !== "item.delta" || killed) return;
      killed = true;
      // The agent is this process's child (setpriv execs it in place).
      const pids = execFileSync("pgrep", ["-P", String(process.pid), "-f", "scripted-agent.mjs"])
        .toString()
        .trim()
        .split("\n");
      for (const pid of pids) process.kill(Number(pid), "SIGKILL");
    });
    const completed = lastOf(events);
    expect(completed.status).toBe("failed");
    expect(completed.failure?.kind).toBe("runtime_crashed");
    const started = events.filter((e) => e.type === "item.started").map((e) => e.itemRef);
    const closed = events.filter((e) => e.type === "item.completed").map((e) => e.itemRef);
    expect(started.length).toBeGreaterThan(0);
    expect(closed).toEqual(started);
    expect(opened.isAlive()).toBe(false);
  });
});
