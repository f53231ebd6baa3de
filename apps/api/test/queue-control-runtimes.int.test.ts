import type { Orchestrator } from "../src/orchestrator/index.ts";
import type { EventStore } from "@skein/db";
import type { RunId, ThreadId, ThreadState } from "@skein/domain";
import {
  anthropicSlowTextReply,
  anthropicTextReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { createClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { createCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { until } from "./support/until.ts";

/** What both real runtimes offer this test: a thread whose first answer streams slowly. */
type Runtime = {
  store: EventStore;
  orchestrator: Orchestrator;
  thread(threadId: ThreadId): Promise<ThreadState>;
  threadId: ThreadId;
  /** Every model request the runtime sent so far, as JSON text. */
  requests(): string[];
  close(): Promise<void>;
};

const FIRST = "a slow first answer that arrives bit by bit while the person edits the queue";

const runtimes: Record<"codex" | "claude", () => Promise<Runtime>> = {
  async codex() {
    const x = await createCodexSkeinHarness();
    x.server.enqueue(
      responsesSlowTextReply(FIRST.split(/(?<= )/), 250),
      responsesTextReply("answer to C"),
      responsesTextReply("answer to B"),
    );
    const threadId = await x.createThread();
    const requests = () => x.server.requests.map((body) => JSON.stringify(body));
    return { ...x, orchestrator: x.orchestrator, thread: x.thread, threadId, requests };
  },
  async claude() {
    const x = await createClaudeSkeinHarness();
    x.anthropic.enqueue(
      anthropicSlowTextReply(FIRST, 40, { headerDelayMs: 1_500 }),
      anthropicTextReply("answer to C"),
      anthropicTextReply("answer to B"),
    );
    const threadId = await x.createThread({ runtimeMode: "full-access" });
    const requests = () => x.claudeRequests().map((request) => JSON.stringify(request));
    return { ...x, orchestrator: x.orchestrator, thread: x.thread, threadId, requests };
  },
};

let open: Runtime | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
  );

describe("B20: a queue the person controls, on the real runtimes", () => {
  for (const provider of ["codex", "claude"] as const) {
    it(`B20: on ${provider}, queued messages are edited, reordered and withdrawn until they start; a withdrawn one never reaches the model, a started one is CONFLICT`, async () => {
      const x = await runtimes[provider]();
      open = x;
      const { threadId, orchestrator } = x;
      const { runId: first } = await orchestrator.sendMessage({ threadId, text: "QUEUE-FIRST" });
      await until(
        async () => x.requests().length,
        (n) => n > 0,
        30_000,
      );
      const send = async (text: string) =>
        (await orchestrator.sendMessage({ threadId, text })).runId;
      const a = await send("QUEUE-A-WITHDRAWN");
      const b = await send("QUEUE-B-BEFORE-EDIT");
      const c = await send("QUEUE-C");

      // The running message is past editing, moving and withdrawing.
      expect(await refusal(orchestrator.editQueued({ threadId, runId: first, text: "x" }))).toEqual(
        {
          code: "conflict",
          message: expect.stringMatching(
            /message 1 is (starting|running); it can no longer be edited/,
          ),
        },
      );
      await orchestrator.editQueued({ threadId, runId: b, text: "QUEUE-B-EDITED" });
      await orchestrator.reorderQueue({ threadId, runIds: [c, b, a] });
      await orchestrator.withdrawQueued({ threadId, runId: a });

      // What every instance and a restart read: the stored rows, in the new order.
      const reads = createReadModels(x.store);
      const queued = await reads.detail(threadId);
      const line = (runId: RunId) => {
        const run = queued.runs.find((r) => r.id === runId)!;
        return [run.ordinal, run.status];
      };
      expect([line(first), line(c), line(b), line(a)]).toEqual([
        [1, "running"],
        [2, "queued"],
        [3, "queued"],
        [4, "cancelled"],
      ]);
      const userTexts = queued.turnItems.flatMap((item) =>
        item.type === "user_message" ? [`${item.runOrdinal}:${item.text}`] : [],
      );
      expect(userTexts).toEqual([
        "1:QUEUE-FIRST",
        "2:QUEUE-C",
        "3:QUEUE-B-EDITED",
        "4:QUEUE-A-WITHDRAWN",
      ]);

      await orchestrator.waitForRun(first);
      await orchestrator.waitForRun(c);
      await orchestrator.waitForRun(b);
      const done = await x.thread(threadId);
      expect([first, c, b, a].map((id) => done.runs.get(id)?.status)).toEqual([
        "completed",
        "completed",
        "completed",
        "cancelled",
      ]);
      const sent = x.requests();
      expect(sent).toHaveLength(3);
      const everything = sent.join("\n");
      expect(everything).not.toContain("QUEUE-A-WITHDRAWN");
      expect(everything).not.toContain("QUEUE-B-BEFORE-EDIT");
      // The model got the queue in the order the person set: C, then the edited B.
      const last = sent.at(-1)!;
      const at = (text: string) => last.indexOf(text);
      expect(at("QUEUE-FIRST")).toBeGreaterThanOrEqual(0);
      expect(at("QUEUE-C")).toBeGreaterThan(at("QUEUE-FIRST"));
      expect(at("QUEUE-B-EDITED")).toBeGreaterThan(at("QUEUE-C"));

      // Started (and finished) messages refuse every change with CONFLICT, in words.
      for (const attempt of [
        orchestrator.editQueued({ threadId, runId: c, text: "too late" }),
        orchestrator.withdrawQueued({ threadId, runId: c }),
        orchestrator.reorderQueue({ threadId, runIds: [c] }),
      ]) {
        expect(await refusal(attempt)).toEqual({
          code: "conflict",
          message: expect.stringMatching(/message 2 is completed; it can no longer be/),
        });
      }
    }, 90_000);
  }
});
