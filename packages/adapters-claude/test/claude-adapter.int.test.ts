import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  isCapabilityUnsupported,
  type RuntimeEvent,
  type TurnHandle,
} from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { collect, completed, useAdapterHarness, itemsOf } from "./support/adapter-harness.ts";
import {
  anthropicAssistantTexts,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicSlowTextReply,
  anthropicTaskReply,
  anthropicTextReply,
  anthropicThinkingReply,
  anthropicUserTexts,
  anthropicWriteReply,
} from "@skein/fake-models";

const openHarness = useAdapterHarness();

describe("createClaudeAdapter: runtime events", () => {
  it("maps a streamed text turn; a second turn reuses the process", async () => {
    const h = await openHarness({
      script: [anthropicThinkingReply("pondering", "Hello there"), anthropicTextReply("again")],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const turn = h.session.startTurn(nativeThreadRef, { text: "hi" }, { settings: h.settings });
    const events = await collect(turn);
    // E10: the turn's ref is the uuid of its user message, known when the turn starts.
    const { nativeTurnRef: turnRef } = await turn.started;
    expect(turnRef).toMatch(/^[0-9a-f-]{36}$/);

    expect(events[0]).toEqual({
      type: "turn.started",
      nativeTurnRef: turnRef,
      rawEventId: expect.any(String),
    });
    const message = itemsOf(events, "assistant_message")[0];
    expect(message?.fields.text).toBe("Hello there");
    const deltas = events.filter(
      (e): e is Extract<RuntimeEvent, { type: "item.delta" }> =>
        e.type === "item.delta" && e.itemRef === message?.itemRef,
    );
    expect(deltas.map((d) => d.delta).join("")).toBe("Hello there");
    expect(itemsOf(events, "reasoning")[0]?.fields.text).toBe("pondering");
    expect(events.some((e) => e.type === "usage")).toBe(true);
    const done = completed(events);
    expect(done.status).toBe("completed");
    expect(done.nativeTurnRef).toBe(turnRef);

    const second = await collect(
      h.session.startTurn(nativeThreadRef, { text: "more" }, { settings: h.settings }),
    );
    expect(completed(second).status).toBe("completed");
    expect(h.session.spawnCount).toBe(1);
    expect(h.session.runtimeVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(anthropicUserTexts(h.server.conversationRequests()[1]!)).toEqual(["hi", "more"]);
  });

  it("turns canUseTool into requests: accept runs Bash, decline completes the item declined", async () => {
    const h = await openHarness();
    const made = join(h.settings.cwd, "made.txt");
    const refused = join(h.settings.cwd, "refused.txt");
    h.server.enqueue(
      anthropicBashReply(`touch ${made} && echo made-it`),
      anthropicTextReply("ok"),
      anthropicBashReply(`touch ${refused}`),
      anthropicTextReply("fine"),
    );
    const { nativeThreadRef } = await h.session.startThread(h.settings);

    const answer = async (turn: TurnHandle, decision: "accept" | "decline") => {
      const events: RuntimeEvent[] = [];
      for await (const event of turn.events) {
        events.push(event);
        if (event.type === "request.opened") {
          await h?.session.respondToRequest(event.requestRef, { decision });
        }
      }
      return events;
    };

    const accepted = await answer(
      h.session.startTurn(nativeThreadRef, { text: "make it" }, { settings: h.settings }),
      "accept",
    );
    const request = accepted.find((e) => e.type === "request.opened");
    expect(request).toMatchObject({ kind: "command", command: `touch ${made} && echo made-it` });
    const started = accepted.findIndex(
      (e) => e.type === "item.started" && e.kind === "command_execution",
    );
    expect(started).toBeLessThan(accepted.indexOf(request!));
    expect(itemsOf(accepted, "command_execution")[0]).toMatchObject({
      status: "completed",
      fields: { command: `touch ${made} && echo made-it`, output: "made-it" },
    });
    expect(existsSync(made)).toBe(true);
    await expect(
      h.session.respondToRequest(request?.type === "request.opened" ? request.requestRef : "", {
        decision: "accept",
      }),
    ).rejects.toThrow(/no longer answerable/);

    const declined = await answer(
      h.session.startTurn(nativeThreadRef, { text: "refuse it" }, { settings: h.settings }),
      "decline",
    );
    expect(itemsOf(declined, "command_execution")[0]?.status).toBe("declined");
    expect(completed(declined).status).toBe("completed");
    expect(existsSync(refused)).toBe(false);
  });

  it("maps Write to a file change with a diff (full-access mode runs it unasked)", async () => {
    const h = await openHarness();
    const file = join(h.settings.cwd, "notes.txt");
    h.server.enqueue(anthropicWriteReply(file, "alpha\nbeta\n"), anthropicTextReply("written"));
    const settings = { ...h.settings, runtimeMode: "full-access" as const };
    const { nativeThreadRef } = await h.session.startThread(settings);
    const events = await collect(
      h.session.startTurn(nativeThreadRef, { text: "write" }, { settings }),
    );
    expect(events.some((e) => e.type === "request.opened")).toBe(false);
    const change = itemsOf(events, "file_change")[0];
    expect(change?.status).toBe("completed");
    expect(change?.fields.changes?.[0]).toMatchObject({
      path: file,
      kind: "add",
      diff: "+alpha\n+beta\n+",
    });
  });

  it("interrupt ends the turn interrupted before the reply does; HTTP 500 fails it with the message", async () => {
    const h = await openHarness({
      script: [
        anthropicSlowTextReply("z".repeat(400), 25),
        anthropicErrorReply(500, "model on fire", { shouldRetry: false }),
        anthropicTextReply("fine again"),
      ],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const turn = h.session.startTurn(nativeThreadRef, { text: "slow" }, { settings: h.settings });
    const events: RuntimeEvent[] = [];
    let asked = false;
    for await (const event of turn.events) {
      events.push(event);
      if (event.type === "item.delta" && !asked) {
        asked = true;
        await h.session.interruptTurn(nativeThreadRef, null);
      }
    }
    expect(completed(events).status).toBe("interrupted");
    // Bound by events, not the clock: the turn ended before the model's 400-character reply did.
    const streamed = events.flatMap((e) => (e.type === "item.delta" ? [e.delta] : [])).join("");
    expect(streamed.length).toBeLessThan(400);

    const failed = await collect(
      h.session.startTurn(nativeThreadRef, { text: "boom" }, { settings: h.settings }),
    );
    expect(completed(failed)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("model on fire"),
    });
    const next = await collect(
      h.session.startTurn(nativeThreadRef, { text: "again" }, { settings: h.settings }),
    );
    expect(completed(next).status).toBe("completed");
    // The failed prompt is cut from the conversation: a new process resumes before it.
    expect(h.session.spawnCount).toBe(2);
    expect(
      anthropicUserTexts(h.server.conversationRequests().at(-1)!).map((t) => t.trim()),
    ).toEqual(["slow", "[Request interrupted by user]", "again"]);
  });

  it("shows a native subagent as a subagent item with child items beneath it", async () => {
    const h = await openHarness({
      script: [
        anthropicTaskReply("Investigate", { description: "child job" }),
        anthropicTextReply("done"),
      ],
      subagentScript: [anthropicTextReply("child report")],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const events = await collect(
      h.session.startTurn(nativeThreadRef, { text: "delegate" }, { settings: h.settings }),
    );
    const subagent = itemsOf(events, "subagent")[0];
    expect(subagent).toMatchObject({ status: "completed", parentItemRef: null });
    expect(subagent?.fields.description).toBe("child job");
    expect(String(subagent?.fields.result)).toContain("child report");
    const children = events.filter(
      (e) => e.type === "item.started" && e.parentItemRef === subagent?.itemRef,
    );
    expect(children.length).toBeGreaterThan(0);
  });
});

describe("createClaudeAdapter: threads", () => {
  it("forks at turn 1 and rolls back in place, proven by the recorded requests", async () => {
    const h = await openHarness({
      script: [
        anthropicTextReply("A1"),
        anthropicTextReply("A2"),
        anthropicTextReply("F1"),
        anthropicTextReply("R1"),
      ],
    });
    const { nativeThreadRef: source } = await h.session.startThread(h.settings);
    const run = (ref: string, text: string) =>
      collect(h!.session.startTurn(ref, { text }, { settings: h!.settings }));
    const one = completed(await run(source, "one"));
    completed(await run(source, "two"));
    const history = [
      { nativeTurnRef: one.nativeTurnRef, ordinal: 1, status: "completed" as const },
      { nativeTurnRef: "later", ordinal: 2, status: "completed" as const },
    ];
    const boundary = { turn: history[0]!, history };

    const { nativeThreadRef: fork } = await h.session.forkThread(
      { nativeThreadRef: source, at: boundary },
      h.settings,
    );
    expect(fork).not.toBe(source);
    completed(await run(fork, "fork"));
    expect(anthropicUserTexts(h.server.conversationRequests().at(-1)!)).toEqual(["one", "fork"]);

    expect(await h.session.rollbackThread(source, boundary)).toEqual({ removedTurns: 1 });
    completed(await run(source, "instead"));
    const last = h.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(last)).toEqual(["one", "instead"]);
    expect(anthropicAssistantTexts(last)).toEqual(["A1"]);

    // readHistory follows the transcript's live branch: the rolled-back turn is gone from it.
    const after = await h.session.readHistory(source);
    expect(after.map((t) => [t.ordinal, t.userText, t.assistantText])).toEqual([
      [1, "one", "A1"],
      [2, "instead", "R1"],
    ]);
    expect(after[0]?.nativeTurnRef).toBe(one.nativeTurnRef);
    const forked = await h.session.readHistory(fork);
    expect(forked.map((t) => t.userText)).toEqual(["one", "fork"]);
  });

  it("injects a handoff ahead of the message, resumes known threads, and refuses what it cannot do", async () => {
    const h = await openHarness();
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "continue", context: { handoffId: "hnd_1", text: "Earlier: runs 1-2 did X." } },
        { settings: h.settings },
      ),
    );
    expect(anthropicUserTexts(h.server.conversationRequests()[0]!)).toEqual([
      "Earlier: runs 1-2 did X.",
      "continue",
    ]);

    const other = await h.adapter.openSession({ providerSessionId: "pss_2", cwd: h.settings.cwd });
    await expect(other.resumeThread(nativeThreadRef, h.settings)).resolves.toEqual({
      nativeThreadRef,
    });
    await expect(
      other.resumeThread("00000000-0000-4000-8000-000000000000", h.settings),
    ).rejects.toThrow(/No Claude conversation/);
    await other.close();

    const unsupported = await h.session
      .rollbackThread(nativeThreadRef, null)
      .catch((e: unknown) => e);
    expect(isCapabilityUnsupported(unsupported)).toBe(true);
    expect(await h.session.readHistory(nativeThreadRef)).toEqual([
      {
        nativeTurnRef: expect.any(String),
        ordinal: 1,
        userText: "Earlier: runs 1-2 did X.\ncontinue",
        assistantText: "OK",
      },
    ]);
  });

  it("reports the bundled binary in status()", async () => {
    const h = await openHarness();
    expect(await h.adapter.status()).toMatchObject({
      found: true,
      ready: true,
      version: expect.stringMatching(/Claude Code/),
    });
  });
});
