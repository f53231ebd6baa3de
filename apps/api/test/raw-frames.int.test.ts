import { join } from "node:path";
import {
  anthropicBashReply,
  anthropicTextReply,
  execCommandReply,
  responsesTextReply,
} from "@skein/fake-models";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { eventually, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { scratchSchema } from "./support/postgres.ts";
import { readRawFrames } from "../src/read-models/raw-frames.ts";
import {
  acceptPending,
  expectItemsLeadToTheirFrames,
  expectRunFramesSpanTheTurn,
} from "./support/raw-frames-check.ts";
import { serveHarness, watchRaw } from "./support/raw-stream-check.ts";

// Real runtimes on a loaded 2-core machine: generous bounds.
const SLOW = 90_000;

const codexHarness = useCodexSkeinHarness();
let claude: ClaudeSkeinHarness | undefined;
const dropAfter: Array<() => Promise<void>> = [];
afterEach(async () => {
  await claude?.close();
  claude = undefined;
});
// Registered after the harness's own afterEach, so it runs first (vitest runs them in reverse):
// hence schemas are dropped in afterAll, once every store is closed.
afterAll(async () => {
  for (const drop of dropAfter.splice(0)) await drop();
});

describe("from an item to its raw frames (real runtimes)", () => {
  for (const database of ["sqlite", "postgres"] as const) {
    it(
      `B8/E18: on Codex (${database}), every item of a run with an approved command leads to the frames that produced it; events.watchRaw streams them live and resumes without loss or repeats`,
      async () => {
        const schema = database === "postgres" ? await scratchSchema() : null;
        if (schema) dropAfter.push(schema.drop);
        const x = await codexHarness(schema ? { postgresUrl: schema.url } : {});
        const api = await serveHarness(x);
        dropAfter.unshift(api.close);
        x.server.enqueue(execCommandReply("echo raw-frames"), responsesTextReply("all done"));
        const threadId = await x.createThread({ runtimeMode: "approval-required" });
        const runId = await x.send(threadId, "run a command");
        const live = watchRaw(api.client, { threadId, runId });
        const cut = watchRaw(api.client, { threadId, runId });
        // The turn waits on the approval: its request frame has been streamed, its end not yet.
        const requestFrame = await eventually(async () => {
          const pending = [...(await x.thread(threadId)).requests.values()][0];
          const node = pending ? (await x.thread(threadId)).nodes.get(pending.nodeId) : undefined;
          if (!node?.rawFrames) throw new Error("no request frame yet");
          return node.rawFrames.first;
        }, 30_000);
        for (const watch of [live, cut]) {
          await watch.until(() => watch.ids.includes(requestFrame), 30_000, "the request frame");
        }
        expect(live.frames.map((f) => f.method)).not.toContain("turn/completed");
        cut.stop();
        const beforeCut = [...cut.ids];
        await acceptPending(x.orchestrator, () => x.thread(threadId), eventually);
        await x.orchestrator.waitForRun(runId);
        const state = await x.thread(threadId);
        expect(state.runs.get(runId)?.status).toBe("completed");
        const items = await expectItemsLeadToTheirFrames(x.store, x.rawLog, state, threadId, runId);
        expect(items.map((i) => i.type)).toContain("approval_request");
        await expectRunFramesSpanTheTurn(x.store, x.rawLog, threadId, runId, {
          start: /^turn\/started$/,
          end: /^turn\/completed$/,
        });

        const all = (await readRawFrames(x.store, x.rawLog, { threadId, runId })).frames;
        const ids = all.map((f) => f.rawEventId);
        // The open subscription saw the rest arrive on the same connection, then ended.
        await live.until(() => live.complete, 30_000, "the live stream to end");
        expect(live.ids).toEqual(ids);
        expect(live.frames.map((f) => f.method)).toContain("turn/completed");
        // Resumed after the cut: exactly what was produced meanwhile.
        const resumed = watchRaw(api.client, {
          threadId,
          runId,
          lastEventId: cut.lastId ?? "start",
        });
        await resumed.until(() => resumed.complete, 30_000, "the resumed stream to end");
        expect(resumed.ids.length).toBeGreaterThan(0);
        expect([...beforeCut, ...resumed.ids]).toEqual(ids);
        // And from any frame: only those after it.
        const middle = Math.floor(ids.length / 2);
        const tail = watchRaw(api.client, { threadId, runId, lastEventId: ids[middle] });
        await tail.until(() => tail.complete, 30_000, "the tail stream to end");
        expect(tail.ids).toEqual(ids.slice(middle + 1));
      },
      SLOW,
    );
  }

  it(
    "B8/E18: on Claude, every item of a run with an approved command, its approval too, leads to the frames that produced it, from the turn's first message to its result",
    async () => {
      const x = await createClaudeSkeinHarness();
      claude = x;
      // A command that writes: Claude asks before running it.
      const file = join(x.workspaceRoot, "raw-frames.txt");
      x.anthropic.enqueue(anthropicBashReply(`touch ${file}`), anthropicTextReply("all done"));
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const { runId } = await x.orchestrator.sendMessage({ threadId, text: "run a command" });
      await acceptPending(x.orchestrator, () => x.thread(threadId), eventually);
      await x.orchestrator.waitForRun(runId);
      const state = await x.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      const items = await expectItemsLeadToTheirFrames(x.store, x.rawLog, state, threadId, runId);
      // The permission callback is no wire frame: the adapter logs what it received, and the
      // approval item leads there.
      const approval = items.find((i) => i.type === "approval_request");
      if (!approval?.nodeId) throw new Error("the approval item keeps no frames");
      const asked = await readRawFrames(x.store, x.rawLog, {
        threadId,
        runId,
        nodeId: approval.nodeId,
      });
      expect(asked.frames[0]).toMatchObject({ method: "can_use_tool", messageKind: "request" });
      await expectRunFramesSpanTheTurn(x.store, x.rawLog, threadId, runId, {
        start: /./,
        end: /^result\//,
      });
    },
    SLOW,
  );
});
