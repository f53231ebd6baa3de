import type { RuntimeEvent, ThreadSettings } from "@skein/domain/provider";
import { CapabilityUnsupportedError } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "./scripted-provider.ts";

const settings: ThreadSettings = { cwd: "/tmp", runtimeMode: "full-access" };

async function collect(events: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("scripted provider", () => {
  it("streams a scripted turn and ends with exactly one turn.completed", async () => {
    const provider = createScriptedProvider();
    provider.enqueue([{ type: "text", text: "hello world", chunks: 3 }]);
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const { nativeThreadRef } = await session.startThread(settings);
    const events = await collect(
      session.startTurn(nativeThreadRef, { text: "hi" }, { settings }).events,
    );
    const deltas = events
      .filter((e) => e.type === "item.delta")
      .map((e) => (e.type === "item.delta" ? e.delta : ""));
    expect(deltas.join("")).toBe("hello world");
    expect(deltas.length).toBe(3);
    expect(events.filter((e) => e.type === "turn.completed")).toEqual([
      expect.objectContaining({ status: "completed" }),
    ]);
  });

  it("waits for an approval answer; decline skips the command", async () => {
    const provider = createScriptedProvider();
    provider.enqueue([{ type: "command", command: "ls", output: "a\n", approval: true }]);
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const { nativeThreadRef } = await session.startThread(settings);
    const approvalSettings: ThreadSettings = { ...settings, runtimeMode: "approval-required" };
    const turn = session.startTurn(
      nativeThreadRef,
      { text: "list" },
      { settings: approvalSettings },
    );
    const seen: RuntimeEvent[] = [];
    for await (const event of turn.events) {
      seen.push(event);
      if (event.type === "request.opened")
        await session.respondToRequest(event.requestRef, { decision: "decline" });
    }
    expect(seen.find((e) => e.type === "item.completed")).toMatchObject({ status: "declined" });
    expect(seen.some((e) => e.type === "item.delta")).toBe(false);
    expect(seen.at(-1)).toMatchObject({ type: "turn.completed", status: "completed" });
  });

  it("forks at a turn boundary keeping only the turns up to it", async () => {
    const provider = createScriptedProvider();
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const { nativeThreadRef } = await session.startThread(settings);
    const first = session.startTurn(nativeThreadRef, { text: "one" }, { settings });
    await collect(first.events);
    await collect(session.startTurn(nativeThreadRef, { text: "two" }, { settings }).events);
    const turn1 = {
      nativeTurnRef: (await first.started).nativeTurnRef,
      ordinal: 1,
      status: "completed" as const,
    };
    const fork = await session.forkThread(
      { nativeThreadRef, at: { turn: turn1, history: [turn1] } },
      settings,
    );
    const history = await session.readHistory(fork.nativeThreadRef);
    expect(history.map((t) => t.userText)).toEqual(["one"]);
    expect((await session.readHistory(nativeThreadRef)).length).toBe(2);
  });

  it("interrupt ends a slow turn as interrupted", async () => {
    const provider = createScriptedProvider();
    provider.enqueue([{ type: "wait", ms: 10_000 }]);
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const { nativeThreadRef } = await session.startThread(settings);
    const turn = session.startTurn(nativeThreadRef, { text: "slow" }, { settings });
    setTimeout(() => void session.interruptTurn(nativeThreadRef, null), 10);
    const events = await collect(turn.events);
    expect(events.at(-1)).toMatchObject({ type: "turn.completed", status: "interrupted" });
  });

  it("an unsupported operation fails with CapabilityUnsupported before any call is recorded", async () => {
    const provider = createScriptedProvider({ capabilities: { steer: false, nativeFork: false } });
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const before = provider.calls.length;
    await expect(session.steerTurn("x", null, "more")).rejects.toBeInstanceOf(
      CapabilityUnsupportedError,
    );
    await expect(
      session.forkThread({ nativeThreadRef: "x", at: null }, settings),
    ).rejects.toBeInstanceOf(CapabilityUnsupportedError);
    expect(provider.calls.length).toBe(before);
  });

  it("a killed session ends its running turn failed and native threads stay resumable", async () => {
    const provider = createScriptedProvider();
    provider.enqueue([{ type: "wait", ms: 10_000 }]);
    const session = await provider.openSession({ providerSessionId: "pss_1", cwd: "/tmp" });
    const { nativeThreadRef } = await session.startThread(settings);
    const turn = session.startTurn(nativeThreadRef, { text: "slow" }, { settings });
    setTimeout(() => provider.killAll(), 10);
    expect((await collect(turn.events)).at(-1)).toMatchObject({
      status: "failed",
      error: "runtime exited",
    });
    const next = await provider.openSession({ providerSessionId: "pss_2", cwd: "/tmp" });
    await expect(next.resumeThread(nativeThreadRef, settings)).resolves.toEqual({
      nativeThreadRef,
    });
  });
});
