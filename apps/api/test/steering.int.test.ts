import type { RunId, ThreadId, TurnItem } from "@skein/domain";
import {
  anthropicLatestUserText,
  anthropicRequestText,
  anthropicSlowTextReply,
  anthropicTextReply,
  conversationText,
  messageTexts,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import type { EventStore } from "@skein/db";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import {
  type CodexSkeinHarness,
  createCodexSkeinHarness,
  eventually,
} from "./support/codex-skein-harness.ts";

// Real binaries on a loaded 2-core machine.
const SLOW = 90_000;
const STEER = "STEER-MARKER: answer this instead";
const ANSWER = "the answer to the steer";

let codex: CodexSkeinHarness | undefined;
let claude: ClaudeSkeinHarness | undefined;
afterEach(async () => {
  await codex?.close();
  await claude?.close();
  codex = undefined;
  claude = undefined;
});

/** What the UI reads (thread.detail): the run's messages in order, as [type, status, text]. */
async function shownMessages(store: EventStore, threadId: ThreadId, runId: RunId) {
  const detail = await createReadModels(store).detail(threadId);
  return (detail.visibleTurnItems ?? detail.turnItems)
    .filter((i: TurnItem) => i.runId === runId)
    .flatMap((i) =>
      i.type === "user_message" || i.type === "assistant_message"
        ? [{ type: i.type, status: i.status, text: i.text }]
        : [],
    );
}

/** Waits until the run is streaming its first answer into Skein. */
async function streaming(read: () => Promise<TurnItem[]>) {
  await eventually(async () => {
    const text = (await read()).find((i) => i.type === "assistant_message" && i.text !== "");
    expect(text?.status).toBe("running");
  }, 30_000);
}

/** The run's last message is the steer's reply, completed, and the run completed on it. */
function expectEndsOnSteerReply(shown: Awaited<ReturnType<typeof shownMessages>>) {
  expect(shown.at(-1)).toEqual({ type: "assistant_message", status: "completed", text: ANSWER });
  const steer = shown.findIndex((m) => m.type === "user_message" && m.text === STEER);
  expect(steer).toBeGreaterThan(0);
  expect(steer).toBe(shown.length - 2);
}

describe("R1: steering on the real Codex app-server", () => {
  const items = async (x: CodexSkeinHarness, threadId: ThreadId) =>
    [...(await x.thread(threadId)).turnItems.values()].map((e) => e.item);
  /**
   * A run answering slowly (`parts` pieces `<word>N `, one per `delayMs`) to "start talking",
   * steered with STEER once its answer shows, then awaited; the model's next answer is ANSWER.
   */
  const steeredMidAnswer = async (
    x: CodexSkeinHarness,
    word: string,
    parts: number,
    delayMs: number,
  ) => {
    x.server.enqueue(
      responsesSlowTextReply(
        Array.from({ length: parts }, (_, i) => `${word}${i} `),
        delayMs,
      ),
      responsesTextReply(ANSWER),
    );
    const threadId = await x.createThread();
    const runId = await x.send(threadId, "start talking");
    await streaming(() => items(x, threadId));
    await x.orchestrator.steer({ threadId, text: STEER });
    await x.orchestrator.waitForRun(runId);
    return { threadId, runId };
  };

  it(
    "R1: native steer (turn/steer): the steer reaches the model in the same attempt and its reply ends the run",
    async () => {
      const x = await createCodexSkeinHarness();
      codex = x;
      const { threadId, runId } = await steeredMidAnswer(x, "part", 12, 300);

      const state = await x.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      expect([...state.attempts.values()].map((a) => a.reason)).toEqual(["initial"]);
      expect(x.sent("turn/steer")).toHaveLength(1);
      expect(x.sent("turn/start")).toHaveLength(1);
      const carried = x.server.requests.filter((r) => conversationText(r).includes(STEER));
      expect(carried).toHaveLength(1);
      // (Codex puts its environment context ahead of the first prompt.)
      expect(messageTexts(carried[0]!, "user").slice(-2)).toEqual(["start talking", STEER]);
      expectEndsOnSteerReply(await shownMessages(x.store, threadId, runId));
    },
    SLOW,
  );

  it(
    "R1: without native steer, the turn is interrupted and a steering_restart attempt sends the steer",
    async () => {
      const x = await createCodexSkeinHarness({ capabilities: { steer: false } });
      codex = x;
      const { threadId, runId } = await steeredMidAnswer(x, "word", 60, 250);

      const state = await x.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      const attempts = [...state.attempts.values()].filter((a) => a.runId === runId);
      expect(attempts.map((a) => a.reason)).toEqual(["initial", "steering_restart"]);
      expect(x.sent("turn/steer")).toHaveLength(0);
      expect(x.sent("turn/interrupt")).toHaveLength(1);
      expect(x.sent("turn/start")).toHaveLength(2);
      const carried = x.server.requests.filter((r) => conversationText(r).includes(STEER));
      expect(carried).toHaveLength(1);
      expect(messageTexts(carried[0]!, "user").at(-1)).toBe(STEER);
      const shown = await shownMessages(x.store, threadId, runId);
      expect(shown[1]).toMatchObject({ type: "assistant_message", status: "interrupted" });
      expectEndsOnSteerReply(shown);
    },
    SLOW,
  );
});

describe("R1: steering on the real Claude Agent SDK", () => {
  const items = async (x: ClaudeSkeinHarness, threadId: ThreadId) =>
    [...(await x.thread(threadId)).turnItems.values()].map((e) => e.item);

  it(
    "R1: native steer: the steer is sent into the running turn, answered after the first answer, and its reply ends the run",
    async () => {
      const x = await createClaudeSkeinHarness();
      claude = x;
      // Claude Code lets the model finish the answer it is streaming, then answers the steer.
      x.anthropic.enqueue(
        anthropicTextReply("a first answer, streamed in small pieces. ".repeat(10), {
          chunkSize: 4,
          chunkDelayMs: 40,
        }),
        anthropicTextReply(ANSWER),
      );
      const threadId = await x.createThread();
      const { runId } = await x.orchestrator.sendMessage({ threadId, text: "start talking" });
      await streaming(() => items(x, threadId));
      await x.orchestrator.steer({ threadId, text: STEER });
      await x.orchestrator.waitForRun(runId);

      const state = await x.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      expect([...state.attempts.values()].map((a) => a.reason)).toEqual(["initial"]);
      const carried = x.claudeRequests().filter((r) => anthropicRequestText(r).includes(STEER));
      expect(carried).toHaveLength(1);
      expect(anthropicLatestUserText(carried[0]!).trim()).toBe(STEER);
      expect(x.claudeSpawns()).toBe(1);
      const shown = await shownMessages(x.store, threadId, runId);
      expect(shown[1]).toMatchObject({ type: "assistant_message", status: "completed" });
      expectEndsOnSteerReply(shown);
    },
    SLOW,
  );

  it(
    "R1: without native steer, the turn is interrupted and a steering_restart attempt sends the steer",
    async () => {
      const x = await createClaudeSkeinHarness({ claudeCapabilities: { steer: false } });
      claude = x;
      x.anthropic.enqueue(anthropicSlowTextReply("z".repeat(600), 20), anthropicTextReply(ANSWER));
      const threadId = await x.createThread();
      const { runId } = await x.orchestrator.sendMessage({ threadId, text: "start talking" });
      await streaming(() => items(x, threadId));
      await x.orchestrator.steer({ threadId, text: STEER });
      await x.orchestrator.waitForRun(runId);

      const state = await x.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      const attempts = [...state.attempts.values()].filter((a) => a.runId === runId);
      expect(attempts.map((a) => a.reason)).toEqual(["initial", "steering_restart"]);
      expect(state.providerTurns.size).toBe(2);
      const requests = x.claudeRequests();
      expect(requests).toHaveLength(2);
      expect(requests[0]?.closedByClient).toBe(true);
      const carried = requests.filter((r) => anthropicRequestText(r).includes(STEER));
      expect(carried).toEqual([requests[1]]);
      // The new attempt's prompt follows the CLI's interrupt marker, in the same conversation.
      expect(anthropicLatestUserText(requests[1]!)).toMatch(
        new RegExp(`\\[Request interrupted by user\\][\\s\\S]*${STEER}$`),
      );
      const shown = await shownMessages(x.store, threadId, runId);
      expect(shown[1]).toMatchObject({ type: "assistant_message", status: "interrupted" });
      expectEndsOnSteerReply(shown);
    },
    SLOW,
  );
});
