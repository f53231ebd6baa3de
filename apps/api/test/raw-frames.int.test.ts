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
import { acceptPending, expectItemsLeadToTheirFrames } from "./support/raw-frames-check.ts";

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
      `B8: on Codex (${database}), every item of a run with an approved command leads to the frames that produced it`,
      async () => {
        const schema = database === "postgres" ? await scratchSchema() : null;
        if (schema) dropAfter.push(schema.drop);
        const x = await codexHarness(schema ? { postgresUrl: schema.url } : {});
        x.server.enqueue(execCommandReply("echo raw-frames"), responsesTextReply("all done"));
        const threadId = await x.createThread({ runtimeMode: "approval-required" });
        const runId = await x.send(threadId, "run a command");
        await acceptPending(x.orchestrator, () => x.thread(threadId), eventually);
        await x.orchestrator.waitForRun(runId);
        const state = await x.thread(threadId);
        expect(state.runs.get(runId)?.status).toBe("completed");
        const items = await expectItemsLeadToTheirFrames(x.store, x.rawLog, state, threadId, runId);
        expect(items.map((i) => i.type)).toContain("approval_request");
      },
      SLOW,
    );
  }

  it(
    "B8: on Claude, every item of a run with an approved command leads to the frames that produced it",
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
      await expectItemsLeadToTheirFrames(x.store, x.rawLog, state, threadId, runId);
    },
    SLOW,
  );
});
