import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import type { ConfiguredProviderId, RawFrame } from "@skein/domain/provider";
import {
  anthropicLatestUserText,
  anthropicRequestText,
  anthropicTextReply,
  startFakeMessagesServer,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { registerConfiguredAgents } from "../src/providers/provider-registry.ts";
import { claudeAcpAgentEntry } from "./support/claude-acp-agent.ts";

describe("R2 restart on an ACP agent that declares session/load (real claude-agent-acp via SKEIN_ACP_AGENTS)", () => {
  it("R2: after a restart the thread goes on in the same agent session, taken up with session/load (no handoff)", async () => {
    const anthropic = await startFakeMessagesServer();
    const claudeConfigDir = mkdtempSync(join(tmpdir(), "skein-claude-acp-restart-config-"));
    const data = mkdtempSync(join(tmpdir(), "skein-claude-acp-restart-data-"));
    const work = mkdtempSync(join(tmpdir(), "skein-claude-acp-restart-work-"));
    const env = {
      SKEIN_ACP_AGENTS: JSON.stringify([claudeAcpAgentEntry(anthropic.url, claudeConfigDir)]),
    };
    const store = openSqliteEventStore({ dataDir: data });
    // The ACP methods Skein sent to the agent, in order (raw frames, E18).
    const sent: string[] = [];
    const rawLog = {
      record(frame: RawFrame) {
        if (frame.direction === "outgoing" && frame.method) sent.push(frame.method);
        return "test";
      },
    };
    const start = async () => {
      const registered = await registerConfiguredAgents({ env, dataDir: data });
      const adapters = Object.fromEntries(registered.map((r) => [r.id, r.createAdapter()]));
      return createOrchestrator({ store, adapters, dataDir: data, sessionIdleMs: 0, rawLog });
    };
    let orchestrator = await start();
    try {
      anthropic.enqueue(
        anthropicTextReply("BEFORE-RESTART-ANSWER"),
        anthropicTextReply("AFTER-RESTART"),
      );
      const { projectId } = await orchestrator.createProject({ name: "r", workspaceRoot: work });
      const provider = "claude-acp" as ConfiguredProviderId;
      const { threadId } = await orchestrator.createThread({ projectId, provider });
      const first = await orchestrator.sendMessage({ threadId, text: "BEFORE-RESTART-MESSAGE" });
      await orchestrator.waitForRun(first.runId);
      expect(sent).toContain("session/new");

      await orchestrator.shutdown();
      sent.length = 0;
      orchestrator = await start();
      await orchestrator.recover();

      const second = await orchestrator.sendMessage({ threadId, text: "AFTER-RESTART-MESSAGE" });
      await orchestrator.waitForRun(second.runId);
      const state = await orchestrator.repository.thread(threadId as ThreadId);
      const run = state.runs.get(second.runId)!;
      expect(run.status).toBe("completed");
      // The same provider thread, taken up natively: no new session, no handoff.
      expect(run.providerThreadId).toBe(state.runs.get(first.runId)!.providerThreadId);
      expect(run.contextHandoffId ?? null).toBeNull();
      expect(sent).toContain("session/load");
      expect(sent).not.toContain("session/new");
      // The agent's own session carried run 1 to the model.
      const asked = anthropic.conversationRequests().at(-1)!;
      expect(anthropicRequestText(asked)).toContain("BEFORE-RESTART-ANSWER");
      expect(anthropicLatestUserText(asked)).toContain("AFTER-RESTART-MESSAGE");
    } finally {
      await orchestrator.shutdown();
      await store.close();
      await anthropic.close();
      for (const dir of [claudeConfigDir, data, work])
        rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
