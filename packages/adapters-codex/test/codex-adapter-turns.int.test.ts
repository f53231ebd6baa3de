import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { AdapterHarness, collect, completion, ofType } from "./support/adapter-harness.ts";
import {
  conversationText,
  execCommandReply,
  functionCallOutputs,
  functionCallReply,
  httpErrorReply,
  reasoningReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";

describe("codex adapter turns (real binary)", () => {
  test("status finds the pinned binary", async () => {
    const h = await AdapterHarness.forTest();
    await expect(h.adapter.status()).resolves.toMatchObject({
      found: true,
      version: "0.171.0",
      ready: true,
      lastError: null,
    });
  });

  test("a turn maps to started → items with coalesced deltas → usage → completed", async () => {
    const h = await AdapterHarness.forTest([
      reasoningReply(["weighing options"], "Hello from Codex today"),
    ]);
    const session = await h.openSession();
    expect(session.runtimeVersion).toBe("0.171.0");
    const { nativeThreadRef } = await session.startThread(h.settings());
    const handle = session.startTurn(nativeThreadRef, { text: "hi" }, { settings: h.settings() });
    const events = await collect(handle);
    const { nativeTurnRef } = await handle.started;

    expect(events[0]).toMatchObject({ type: "turn.started", nativeTurnRef });
    const kinds = ofType(events, "item.completed").map((e) => [e.kind, e.status, e.fields.text]);
    expect(kinds).toEqual([
      ["user_message", "completed", "hi"],
      ["reasoning", "completed", "weighing options"],
      ["assistant_message", "completed", "Hello from Codex today"],
    ]);
    const text = ofType(events, "item.delta").filter((e) => e.field === "text");
    expect(text.map((e) => e.delta).join("")).toBe("weighing optionsHello from Codex today");
    expect(ofType(events, "usage")[0]).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(completion(events)).toMatchObject({ status: "completed", nativeTurnRef });
    expect(events.at(-1)?.type).toBe("turn.completed");
    for (const e of events) expect(e.rawEventId).toMatch(/^raw_/);
  });

  test("a second turn carries the first in its history", async () => {
    const h = await AdapterHarness.forTest([
      responsesTextReply("FIRST-ANSWER"),
      responsesTextReply("ok"),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    await collect(
      session.startTurn(nativeThreadRef, { text: "FIRST-Q" }, { settings: h.settings() }),
    );
    await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "SECOND-Q", context: { handoffId: "hnd_1", text: "HANDOFF-CONTEXT" } },
        { settings: h.settings() },
      ),
    );
    const sent = conversationText(h.server.requests[1] ?? { input: [] });
    for (const marker of ["FIRST-Q", "FIRST-ANSWER", "HANDOFF-CONTEXT", "SECOND-Q"]) {
      expect(sent).toContain(marker);
    }
  });

  test("approval accept runs the command; decline does not; both turns complete", async () => {
    const h = await AdapterHarness.forTest([
      execCommandReply("echo yes > accepted.txt && echo ACCEPTED-OUT"),
      responsesTextReply("ran it"),
      execCommandReply("echo no > declined.txt"),
      responsesTextReply("skipped it"),
    ]);
    const session = await h.openSession();
    const settings = h.settings({ runtimeMode: "approval-required" });
    const { nativeThreadRef } = await session.startThread(settings);

    const accepted = await collect(
      session.startTurn(nativeThreadRef, { text: "run" }, { settings }),
      {
        session,
        answer: () => ({ decision: "accept" }),
      },
    );
    const [opened] = ofType(accepted, "request.opened");
    expect(opened).toMatchObject({
      kind: "command",
      command: expect.stringContaining("ACCEPTED-OUT"),
    });
    expect(ofType(accepted, "request.closed")).toEqual([
      expect.objectContaining({ requestRef: opened?.requestRef, reason: "answered" }),
    ]);
    const command = ofType(accepted, "item.completed").find((e) => e.kind === "command_execution");
    expect(command).toMatchObject({ status: "completed", itemRef: opened?.itemRef });
    expect(command?.fields).toMatchObject({
      exitCode: 0,
      output: expect.stringContaining("ACCEPTED-OUT"),
    });
    expect(completion(accepted).status).toBe("completed");
    expect(existsSync(path.join(h.workdir, "accepted.txt"))).toBe(true);
    await expect(
      session.respondToRequest(opened?.requestRef ?? "", { decision: "accept" }),
    ).rejects.toThrow("no longer answerable");

    const declined = await collect(
      session.startTurn(nativeThreadRef, { text: "run" }, { settings }),
      {
        session,
        answer: () => ({ decision: "decline" }),
      },
    );
    const skipped = ofType(declined, "item.completed").find((e) => e.kind === "command_execution");
    expect(skipped?.status).toBe("declined");
    expect(completion(declined).status).toBe("completed");
    expect(existsSync(path.join(h.workdir, "declined.txt"))).toBe(false);
  });

  test("interrupt mid-stream ends the turn interrupted and closes the open message", async () => {
    const h = await AdapterHarness.forTest([
      responsesSlowTextReply(["a ", "b ", "c ", "d ", "e "], 300),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const handle = session.startTurn(nativeThreadRef, { text: "go" }, { settings: h.settings() });
    let asked = false;
    const events = await collect(handle, {
      onEvent: (event) => {
        if (event.type === "item.delta" && !asked) {
          asked = true;
          void session.interruptTurn(nativeThreadRef, null);
        }
      },
    });
    expect(completion(events).status).toBe("interrupted");
    // Bound by events, not the clock: the turn ended before the model's reply did.
    const said = ofType(events, "item.delta")
      .map((e) => e.delta)
      .join("");
    expect(said).not.toContain("e ");
    const message = ofType(events, "item.completed").find((e) => e.kind === "assistant_message");
    expect(message?.status).toBe("interrupted");
  });

  test("HTTP 500 fails the turn with error text and the next turn works", async () => {
    const h = await AdapterHarness.forTest([httpErrorReply(500), responsesTextReply("back")]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const failed = completion(
      await collect(session.startTurn(nativeThreadRef, { text: "x" }, { settings: h.settings() })),
    );
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/\S/);
    const next = completion(
      await collect(session.startTurn(nativeThreadRef, { text: "y" }, { settings: h.settings() })),
    );
    expect(next.status).toBe("completed");
  });

  test("steer adds input to the running turn", async () => {
    const h = await AdapterHarness.forTest([
      responsesSlowTextReply(["one ", "two ", "three "], 200),
      responsesTextReply("steered reply"),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const handle = session.startTurn(nativeThreadRef, { text: "go" }, { settings: h.settings() });
    let steered: Promise<void> | null = null;
    const events = await collect(handle, {
      onEvent: (event) => {
        if (event.type === "item.delta" && !steered) {
          steered = session.steerTurn(nativeThreadRef, null, "STEER-TEXT");
        }
      },
    });
    await steered;
    expect(completion(events).status).toBe("completed");
    expect(conversationText(h.server.requests.at(-1) ?? { input: [] })).toContain("STEER-TEXT");
  });

  test("an app-owned tool call goes to onAppToolCall and its output back to Codex", async () => {
    const h = await AdapterHarness.forTest([
      functionCallReply("skein_delegate", { task: "child work" }, "call_1"),
      responsesTextReply("parent done"),
    ]);
    const session = await h.openSession();
    const settings = h.settings({
      tools: [
        {
          name: "skein_delegate",
          description: "Run a task in a child thread",
          inputSchema: { type: "object", properties: { task: { type: "string" } } },
        },
      ],
    });
    const { nativeThreadRef } = await session.startThread(settings);
    const calls: unknown[] = [];
    const events = await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "delegate" },
        {
          settings,
          onAppToolCall: async (call) => {
            calls.push(call);
            return { output: "CHILD-RESULT" };
          },
        },
      ),
    );
    expect(calls).toEqual([
      {
        toolName: "skein_delegate",
        input: { task: "child work" },
        callRef: "call_1",
        nativeThreadRef,
      },
    ]);
    const tool = ofType(events, "item.completed").find((e) => e.kind === "dynamic_tool");
    expect(tool?.fields).toMatchObject({ toolName: "skein_delegate", result: "CHILD-RESULT" });
    expect(functionCallOutputs(h.server.requests[1] ?? { input: [] })).toEqual([
      { callId: "call_1", output: "CHILD-RESULT" },
    ]);
  });
});
