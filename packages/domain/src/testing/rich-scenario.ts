import type { TurnItemContent } from "../entities/turn-item.ts";
import { id, payloadFor, readThreads } from "./fixtures.ts";
import { ThreadScenario } from "./scenario.ts";

/**
 * A thread that exercises every entity and turn item variant: codex runs with messages, tools,
 * reasoning, plans, a compaction, an answered approval, a checkpoint; a provider switch to claude
 * through a portable handoff; a rollback; and a fork of it.
 */
export function richScenario() {
  const s = new ThreadScenario("rich").create("codex");
  const t = s.threadId;
  const r1 = s.queue("build it");
  const a = s.start(r1);
  const turn = a.providerTurnId;
  s.exec({
    type: "StartItem",
    data: {
      threadId: t,
      providerTurnId: turn,
      nodeId: id("node", "reason"),
      kind: "reasoning",
      nativeItemRef: "rs1",
    },
  });
  s.exec({
    type: "AppendItemDelta",
    data: { threadId: t, nodeId: id("node", "reason"), delta: "thinking" },
  });
  s.exec({
    type: "CompleteItem",
    data: { threadId: t, nodeId: id("node", "reason"), status: "completed" },
  });
  s.exec({
    type: "UpdatePlan",
    data: {
      threadId: t,
      providerTurnId: turn,
      planId: id("plan", "todo"),
      nodeId: id("node", "todo"),
      kind: "todo_list",
      status: "active",
      steps: [{ id: "1", text: "edit", status: "running" }],
    },
  });
  s.exec({
    type: "OpenRuntimeRequest",
    data: {
      threadId: t,
      providerTurnId: turn,
      requestId: id("request", "cmd"),
      nodeId: id("node", "approve"),
      kind: "command",
      providerSessionId: id("providerSession", "codex"),
      title: "Run ls?",
      nativeRequestRef: "7",
    },
  });
  s.exec({
    type: "ResolveRuntimeRequest",
    data: { threadId: t, requestId: id("request", "cmd"), decision: "accept" },
  });
  const tools: TurnItemContent[] = [
    { type: "command_execution", input: "ls" },
    { type: "file_change", fileName: "a.ts", additions: 3, deletions: 1, diffStr: "@@ -1 +1 @@" },
    { type: "file_search", query: "TODO", matches: ["a.ts"] },
    { type: "web_search", query: "zod 4", results: [{ title: "zod", url: "https://zod.dev" }] },
    {
      type: "dynamic_tool",
      toolName: "skein_delegate",
      input: { prompt: "x" },
      output: { ok: true },
    },
  ] as const;
  tools.forEach((content, i) => {
    const nodeId = id("node", `tool${i}`);
    s.exec({
      type: "StartItem",
      data: {
        threadId: t,
        providerTurnId: turn,
        nodeId,
        kind: "tool_call",
        content: { ...content },
      },
    });
    if (content.type === "command_execution")
      s.exec({ type: "AppendItemDelta", data: { threadId: t, nodeId, delta: "a.ts\n" } });
    s.exec({ type: "CompleteItem", data: { threadId: t, nodeId, status: "completed" } });
  });
  s.exec({
    type: "StartItem",
    data: {
      threadId: t,
      providerTurnId: turn,
      nodeId: id("node", "compact"),
      kind: "system",
      content: { type: "compaction" },
    },
  });
  s.exec({
    type: "CompleteItem",
    data: { threadId: t, nodeId: id("node", "compact"), status: "completed" },
  });
  s.exec({
    type: "StartItem",
    data: { threadId: t, providerTurnId: turn, nodeId: id("node", "sub"), kind: "subagent" },
  });
  s.exec({
    type: "StartItem",
    data: {
      threadId: t,
      providerTurnId: turn,
      nodeId: id("node", "subchild"),
      kind: "assistant_message",
      parentNodeId: id("node", "sub"),
    },
  });
  s.exec({
    type: "AppendItemDelta",
    data: { threadId: t, nodeId: id("node", "subchild"), delta: "child says hi" },
  });
  s.say(turn, "done with run 1");
  s.finish(turn);
  const ckp1 = s.checkpoint(r1);

  // Run 2 on claude via a portable handoff (T6).
  const r2 = s.queue("continue on claude", "claude");
  const point = {
    threadId: t,
    runId: r1,
    checkpointId: ckp1,
    turnItemId: null,
    providerThreadRef: null,
    providerTurnRef: null,
  };
  s.exec({
    type: "CreateContextTransfer",
    data: {
      threadId: t,
      transferId: id("transfer", "switch"),
      type: "provider_handoff",
      sourceThreadId: t,
      sourcePoint: point,
      sourceProvider: "codex",
      targetProvider: "claude",
      createdBy: "user",
      targetRunId: r2,
    },
  });
  const claudeThread = s.providerThread("claude");
  s.exec({
    type: "RecordHandoff",
    data: {
      threadId: t,
      handoffId: id("handoff", "switch"),
      transferId: id("transfer", "switch"),
      targetRunId: r2,
      kind: "portable_context",
      strategy: "full_thread_summary",
      fromProviderThreadIds: [a.providerThreadId],
      toProviderThreadId: claudeThread,
      coveredRunOrdinals: { from: 1, to: 1 },
      summaryText: "Run 1 (codex): built it.",
      payload: payloadFor(t),
    },
  });
  s.exec({
    type: "ResolveContextTransfer",
    data: {
      threadId: t,
      transferId: id("transfer", "switch"),
      resolution: { strategy: "portable_context", contextHandoffId: id("handoff", "switch") },
    },
  });
  const b = s.start(r2, claudeThread);
  s.exec({
    type: "ConsumeContextTransfer",
    data: { threadId: t, transferId: id("transfer", "switch"), runId: r2 },
  });
  s.say(b.providerTurnId, "claude here");
  s.finish(b.providerTurnId);
  s.checkpoint(r2);

  // Run 3 fails; then the thread is rolled back to run 1's checkpoint.
  const r3 = s.queue("break it", "codex");
  const c = s.start(r3, a.providerThreadId);
  s.finish(c.providerTurnId, "failed");
  s.exec({ type: "RollbackThread", data: { threadId: t, checkpointId: ckp1 } });
  const r4 = s.completedRun("after rollback", {
    providerThreadId: a.providerThreadId,
    checkpoint: true,
  });

  const fork = new ThreadScenario("richfork");
  fork.context = readThreads(s.state);
  fork.exec({
    type: "ForkThread",
    data: {
      threadId: fork.threadId,
      sourceThreadId: t,
      sourcePoint: { type: "latest_stable" },
      createdBy: "user",
      relationship: "fork",
    },
  });
  const f1 = fork.completedRun("explore", { provider: "claude" });
  return { s, fork, r1, r2, r3, r4, f1, ckp1, codexThread: a.providerThreadId, claudeThread };
}
