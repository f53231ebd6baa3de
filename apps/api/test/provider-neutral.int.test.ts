import { anthropicTextReply, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

const SLOW = 120_000;

let h: ClaudeSkeinHarness | undefined;
let t: ScriptedTestServer | undefined;
afterEach(async () => {
  await h?.close();
  await t?.close();
  h = undefined;
  t = undefined;
});

/** Wire markers of each runtime's frames: JSON-RPC of Codex, Anthropic SSE and SDK messages. */
const CODEX_WIRE = /item\/agentMessage\/delta|"method":"turn\/start"|jsonRpcId/;
const CLAUDE_WIRE = /content_block_delta|message_start|"type":"stream_event"|"session_id"/;

describe("S3/E18: raw provider frames are not app state, on both runtimes", () => {
  it(
    "S3 E18: a Codex run and a Claude run on one thread leave their frames in the raw log and none in the events or projection rows, which keep only log refs",
    async () => {
      h = await createClaudeSkeinHarness({ codex: "real" });
      h.openai!.enqueue(responsesTextReply("CODEX-SAYS"));
      h.anthropic.enqueue(anthropicTextReply("CLAUDE-SAYS"));
      const threadId = await h.createThread({ provider: "codex" });
      await h.send(threadId, "to codex", { provider: "codex" });
      const claude = await h.send(threadId, "to claude", { provider: "claude" });
      expect(claude.state.runs.get(claude.runId)?.status).toBe("completed");

      const events = await h.store.readAll(0);
      const refs = events.flatMap((e) => {
        const ref = (e.data as { rawEventId?: string }).rawEventId;
        return ref ? [ref] : [];
      });
      // Both runtimes' frames are in the raw log, behind the refs the events keep.
      const frames = JSON.stringify([...h.rawLog.readMany(refs).values()]);
      expect(frames).toMatch(CODEX_WIRE);
      expect(frames).toMatch(CLAUDE_WIRE);
      // …and nowhere in the database: not in events, not in any projection row.
      const stored = JSON.stringify(events);
      expect(stored).not.toMatch(CODEX_WIRE);
      expect(stored).not.toMatch(CLAUDE_WIRE);
      const rows = await h.store.snapshot(async (q) =>
        Promise.all(
          (["turn_items", "nodes", "messages", "provider_turns", "provider_threads"] as const).map(
            (table) => q.list(table, { threadId }),
          ),
        ),
      );
      const projected = JSON.stringify(rows.data);
      expect(projected).toContain("CLAUDE-SAYS");
      expect(projected).not.toMatch(CODEX_WIRE);
      expect(projected).not.toMatch(CLAUDE_WIRE);
    },
    SLOW,
  );
});

describe("T12: the orchestrator hands adapters a provider-neutral source point", () => {
  it("T12 C1 E10: a native fork gets the same neutral shape on either provider: the native thread, the turn to cut after and the provider thread's turn history, nothing provider-specific", async () => {
    t = await startScriptedServer();
    const { projectId } = await t.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: t.workspaceDir,
    });
    for (const provider of ["codex", "claude"] as const) {
      const adapter = t[provider];
      const { threadId } = await t.client.thread.create.mutate({
        projectId,
        title: provider,
        provider,
      });
      const runs: string[] = [];
      for (const text of ["one", "two"]) {
        adapter.enqueue([{ type: "text", text: `${provider} ${text}` }]);
        const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text, provider });
        await t.orchestrator.waitForRun(runId);
        runs.push(runId);
      }
      const fork = await t.client.thread.fork.mutate({
        threadId,
        sourcePoint: { type: "run", runId: runs[0]! },
      });
      adapter.enqueue([{ type: "text", text: "forked" }]);
      const { runId } = await t.client.thread.sendMessage.mutate({
        threadId: fork.threadId,
        text: "on the fork",
        provider,
      });
      await t.orchestrator.waitForRun(runId);

      const call = adapter.calls.find((c) => c.op === "forkThread");
      expect(call, provider).toBeDefined();
      const { source } = call!.args as { source: Record<string, unknown> };
      expect(Object.keys(source).sort()).toEqual(["at", "nativeThreadRef"]);
      const at = source.at as { turn: Record<string, unknown>; history: Record<string, unknown>[] };
      expect(Object.keys(at).sort()).toEqual(["history", "turn"]);
      expect(Object.keys(at.turn).sort()).toEqual(["nativeTurnRef", "ordinal", "status"]);
      expect(at.turn).toMatchObject({ ordinal: 1, status: "completed" });
      expect(at.history.map((turn) => turn.ordinal)).toEqual([1, 2]);
      expect(at.history[0]).toEqual(at.turn);
      // E10: each native turn is a normalized ProviderTurn tied to its attempt, node and provider
      // thread, numbered per provider thread; the adapter's boundary is built from exactly these.
      const graph = await t.client.thread.graph.query({ threadId });
      const [providerThread] = graph.providerThreads;
      expect(graph.providerTurns.map((p) => [p.ordinal, p.status])).toEqual([
        [1, "completed"],
        [2, "completed"],
      ]);
      for (const [i, turn] of graph.providerTurns.entries()) {
        const run = graph.runs[i]!;
        expect(turn.providerThreadId).toBe(providerThread?.id);
        expect(turn.runAttemptId).toBe(run.run.activeAttemptId);
        expect(turn.nodeId).toBe(run.run.rootNodeId);
        expect(at.history[i]?.nativeTurnRef).toBe(turn.nativeTurnRef);
      }
    }
  });
});
