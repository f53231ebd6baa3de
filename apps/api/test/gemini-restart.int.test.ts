import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import {
  createGeminiTestHome,
  geminiLatestUserText,
  geminiRequestText,
  geminiTextReply,
  startFakeGeminiServer,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";

describe("R2 restart with Gemini CLI (real Gemini CLI, fake Gemini API)", () => {
  it("R2/T6: after a restart the thread goes on in a new Gemini session rebuilt from a portable handoff (Gemini's session/load is not used)", async () => {
    const gemini = await startFakeGeminiServer();
    const home = await createGeminiTestHome({ baseUrl: gemini.url });
    const data = mkdtempSync(join(tmpdir(), "skein-gemini-restart-data-"));
    const work = mkdtempSync(join(tmpdir(), "skein-gemini-restart-work-"));
    const store = openSqliteEventStore({ dataDir: data });
    const start = () =>
      createOrchestrator({
        store,
        adapters: { gemini: createGeminiAdapter({ env: home.env }) },
        dataDir: data,
        sessionIdleMs: 0,
      });
    let orchestrator = await start();
    try {
      gemini.enqueue(geminiTextReply("BEFORE-RESTART-ANSWER"), geminiTextReply("AFTER-RESTART"));
      const { projectId } = await orchestrator.createProject({ name: "r", workspaceRoot: work });
      const { threadId } = await orchestrator.createThread({ projectId, provider: "gemini" });
      const first = await orchestrator.sendMessage({ threadId, text: "BEFORE-RESTART-MESSAGE" });
      await orchestrator.waitForRun(first.runId);

      await orchestrator.shutdown();
      orchestrator = await start();
      await orchestrator.recover();

      const second = await orchestrator.sendMessage({ threadId, text: "AFTER-RESTART-MESSAGE" });
      await orchestrator.waitForRun(second.runId);
      const state = await orchestrator.repository.thread(threadId as ThreadId);
      const run = state.runs.get(second.runId)!;
      expect(run.status).toBe("completed");
      // A new provider thread, told run 1 by a handoff: nothing was resumed natively.
      expect(run.providerThreadId).not.toBe(state.runs.get(first.runId)!.providerThreadId);
      const handoff = state.handoffs.get(run.contextHandoffId!);
      expect(handoff).toMatchObject({ coveredRunOrdinals: { from: 1, to: 1 } });
      const asked = gemini.conversationRequests().at(-1)!;
      expect(geminiRequestText(asked)).toContain("BEFORE-RESTART-ANSWER");
      expect(geminiLatestUserText(asked)).toContain("AFTER-RESTART-MESSAGE");
    } finally {
      await orchestrator.shutdown();
      await store.close();
      await gemini.close();
      await home.remove();
      rmSync(data, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
