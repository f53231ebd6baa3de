import type { NativeTurnRecord, ThreadSettings } from "@skein/domain/provider";
import { isCapabilityUnsupported } from "@skein/domain/provider";
import { describe, expect, test } from "vitest";
import { CodexAppServerClient } from "../src/rpc/app-server-client.ts";
import type { CodexSession } from "../src/session/codex-session.ts";
import { resolveCodexConfig } from "../src/config/codex-config.ts";
import { AdapterHarness, collect, completion } from "./support/adapter-harness.ts";
import {
  conversationText,
  type ResponsesRequestBody,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";

function lastSent(harness: AdapterHarness): string {
  const body: ResponsesRequestBody = harness.server.requests.at(-1) ?? { input: [] };
  return conversationText(body);
}

async function turn(
  session: CodexSession,
  threadRef: string,
  text: string,
  settings: ThreadSettings,
) {
  const handle = session.startTurn(threadRef, { text }, { settings });
  const events = await collect(handle);
  const { nativeTurnRef } = await handle.started;
  return { nativeTurnRef, status: completion(events).status };
}

/** Two completed turns, as the orchestrator would record them. */
async function twoTurns(harness: AdapterHarness, session: CodexSession) {
  const settings = harness.settings();
  const { nativeThreadRef } = await session.startThread(settings);
  const one = await turn(session, nativeThreadRef, "TURN-ONE", settings);
  const two = await turn(session, nativeThreadRef, "TURN-TWO", settings);
  const history: NativeTurnRecord[] = [
    { nativeTurnRef: one.nativeTurnRef, ordinal: 1, status: "completed" },
    { nativeTurnRef: two.nativeTurnRef, ordinal: 2, status: "completed" },
  ];
  return { nativeThreadRef, settings, history };
}

describe("codex adapter history (real binary)", () => {
  test("native fork at turn 1 (C1): the fork's next request has turn 1, not turn 2", async () => {
    const h = await AdapterHarness.forTest();
    const session = await h.openSession();
    const { nativeThreadRef, settings, history } = await twoTurns(h, session);
    const [first] = history;
    if (!first) throw new Error("no history");

    const fork = await session.forkThread(
      { nativeThreadRef, at: { turn: first, history } },
      settings,
    );
    expect(fork.nativeThreadRef).not.toBe(nativeThreadRef);
    expect(h.sent("thread/fork")[0]?.payload).toMatchObject({
      params: { lastTurnId: first.nativeTurnRef },
    });
    await turn(session, fork.nativeThreadRef, "ON-FORK", settings);
    expect(lastSent(h)).toContain("TURN-ONE");
    expect(lastSent(h)).toContain("ON-FORK");
    expect(lastSent(h)).not.toContain("TURN-TWO");
    expect((await session.readHistory(fork.nativeThreadRef)).map((t) => t.userText)).toEqual([
      "TURN-ONE",
      "ON-FORK",
    ]);
  });

  test("fork without a native turn ref finds the boundary by counting (C2)", async () => {
    const h = await AdapterHarness.forTest();
    const session = await h.openSession();
    const { nativeThreadRef, settings, history } = await twoTurns(h, session);
    const weak = history.map((t) => ({ ...t, nativeTurnRef: null }));
    const [first] = weak;
    if (!first) throw new Error("no history");

    const fork = await session.forkThread(
      { nativeThreadRef, at: { turn: first, history: weak } },
      settings,
    );
    const read = await session.readHistory(fork.nativeThreadRef);
    expect(read.map((t) => t.userText)).toEqual(["TURN-ONE"]);

    // Skein knowing only one of Codex's two turns cannot pin the boundary: explicit refusal.
    const forksBefore = h.sent("thread/fork").length;
    const error = await session
      .forkThread({ nativeThreadRef, at: { turn: first, history: [first] } }, settings)
      .catch((e: unknown) => e);
    expect(isCapabilityUnsupported(error)).toBe(true);
    expect(h.sent("thread/fork")).toHaveLength(forksBefore);
  });

  test("rollback to turn 1 reverts turn 2 natively on a paginated thread (C3)", async () => {
    const h = await AdapterHarness.forTest();
    const session = await h.openSession();
    const { nativeThreadRef, settings, history } = await twoTurns(h, session);
    const [first] = history;
    if (!first) throw new Error("no history");

    await expect(
      session.rollbackThread(nativeThreadRef, { turn: first, history }),
    ).resolves.toEqual({
      removedTurns: 1,
    });
    await turn(session, nativeThreadRef, "AFTER-ROLLBACK", settings);
    expect(lastSent(h)).toContain("TURN-ONE");
    expect(lastSent(h)).not.toContain("TURN-TWO");
    await expect(session.rollbackThread(nativeThreadRef, null)).resolves.toEqual({
      removedTurns: 2,
    });
  });

  test("rollback of a legacy-history thread is CapabilityUnsupported and sends no revert", async () => {
    const h = await AdapterHarness.forTest();
    // Skein never creates legacy threads; one made by another client stands in for an old thread.
    const other = await CodexAppServerClient.start({
      config: resolveCodexConfig({ codexHome: h.home.dir }),
      providerSessionId: "pss_other",
    });
    const { thread } = await other.request("thread/start", {
      cwd: h.workdir,
      historyMode: "legacy",
    });
    const stream = other.notifications();
    await other.request("turn/start", {
      threadId: thread.id,
      input: [{ type: "text", text: "LEGACY-TURN", text_elements: [] }],
    });
    for await (const n of stream) if (n.method === "turn/completed") break;
    await other.close();

    const session = await h.openSession();
    const error = await session.rollbackThread(thread.id, null).catch((e: unknown) => e);
    expect(String(error)).toContain("legacy");
    expect(isCapabilityUnsupported(error)).toBe(true);
    expect(h.sent("thread/read")).toHaveLength(1);
    expect(h.sent("thread/revert")).toHaveLength(0);
  });

  test("a killed app-server fails the running turn; a new session resumes with history", async () => {
    const h = await AdapterHarness.forTest([
      responsesTextReply("ANSWER-ONE"),
      responsesSlowTextReply(["never ", "done ", "at ", "all "], 300),
    ]);
    const session = await h.openSession("pss_a");
    const settings = h.settings();
    const { nativeThreadRef } = await session.startThread(settings);
    await turn(session, nativeThreadRef, "TURN-ONE", settings);

    const handle = session.startTurn(nativeThreadRef, { text: "DOOMED" }, { settings });
    let killed = false;
    const events = await collect(handle, {
      onEvent: (event) => {
        if (event.type !== "item.delta" || killed || !session.pid) return;
        killed = true;
        process.kill(session.pid, "SIGKILL");
      },
    });
    const done = completion(events);
    expect(done.status).toBe("failed");
    expect(done.error).toContain("SIGKILL");
    expect(session.isAlive()).toBe(false);

    const revived = await h.openSession("pss_b");
    await revived.resumeThread(nativeThreadRef, settings);
    const after = await turn(revived, nativeThreadRef, "AFTER-CRASH", settings);
    expect(after.status).toBe("completed");
    expect(lastSent(h)).toContain("TURN-ONE");
    expect(lastSent(h)).toContain("ANSWER-ONE");
    expect(lastSent(h)).toContain("AFTER-CRASH");
  });
});
