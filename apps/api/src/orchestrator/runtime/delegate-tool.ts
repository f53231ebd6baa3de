import {
  HandoffPayload,
  type IdSource,
  type ProviderKind,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import { buildSubagentResult } from "@skein/transfer";
import {
  type AppToolDefinition,
  type AppToolHandler,
  isProviderId,
  PROVIDER_IDS,
} from "@skein/domain/provider";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { SubagentRegistry } from "./subagent-registry.ts";

/** What a delegated child's run goes through (the runs' executor). */
export type ChildRunner = {
  readonly subagents: SubagentRegistry;
  kick(threadId: ThreadId): void;
  waitForRun(runId: RunId): Promise<void>;
  stopChild(threadId: ThreadId): Promise<void>;
};

const PROVIDER_CHOICES = PROVIDER_IDS.map((id) => `'${id}'`);

export const DELEGATE_TOOL: AppToolDefinition = {
  name: "skein_delegate",
  description: `Delegate a self-contained task to another coding agent (provider ${PROVIDER_CHOICES.join(" or ")}) in a child thread; returns the child's final answer.`,
  inputSchema: {
    type: "object",
    properties: {
      provider: { type: "string", enum: [...PROVIDER_IDS] },
      model: { type: "string" },
      prompt: { type: "string" },
    },
    required: ["provider", "prompt"],
    additionalProperties: false,
  },
};

type DelegateInput = { provider: ProviderKind; model?: string; prompt: string };

/** A delegated child gets this long before it is interrupted and the parent told so. */
export const DEFAULT_DELEGATE_TIMEOUT_MS = 15 * 60_000;

function parseInput(input: unknown): DelegateInput {
  const value = (
    typeof input === "string" ? JSON.parse(input) : input
  ) as Partial<DelegateInput> | null;
  if (
    !value ||
    !isProviderId(value.provider) ||
    typeof value.prompt !== "string" ||
    !value.prompt
  ) {
    throw new Error(
      `skein_delegate needs { provider: ${PROVIDER_CHOICES.join(" | ")}, prompt: string, model?: string }`,
    );
  }
  return {
    provider: value.provider,
    prompt: value.prompt,
    ...(value.model ? { model: value.model } : {}),
  };
}

/**
 * T9 cross-provider subagents: the parent's tool call creates a child thread with `subagent`
 * lineage and a `subagent_spawn` transfer, runs the child on the requested provider, and returns
 * its final answer; the answer is recorded in the parent as a consumed `subagent_result` transfer
 * whose handoff is exactly the text the parent's tool call received.
 */
export function createDelegateHandler(
  repo: AggregateRepository,
  executor: ChildRunner,
  ids: IdSource,
  parentThreadId: ThreadId,
  parentRunId: RunId,
  limits: { timeoutMs: number } = { timeoutMs: DEFAULT_DELEGATE_TIMEOUT_MS },
): AppToolHandler {
  return async (call) => {
    let input: DelegateInput;
    try {
      input = parseInput(call.input);
    } catch (error) {
      return { output: error instanceof Error ? error.message : String(error), isError: true };
    }
    const parent = await repo.thread(parentThreadId);
    if (!parent.thread) return { output: "parent thread not found", isError: true };
    const childId = ids.next("thread");
    const sourceRunId = parent.latestCompletedRunId;
    const point = (threadId: ThreadId, runId: RunId | null) => ({
      threadId,
      runId,
      checkpointId: null,
      turnItemId: null,
      providerThreadRef: null,
      providerTurnRef: null,
    });
    await repo.execute({
      type: "CreateThread",
      data: {
        threadId: childId,
        projectId: parent.thread.projectId,
        title: `Subagent: ${input.prompt.slice(0, 80)}`,
        defaultProvider: input.provider,
        modelSelection: { model: input.model ?? null },
        runtimeMode: parent.thread.runtimeMode,
        parentThreadId,
        ...(parent.thread.worktreePath ? { worktreePath: parent.thread.worktreePath } : {}),
      },
    });
    await repo.execute({
      type: "CreateContextTransfer",
      data: {
        threadId: childId,
        transferId: ids.next("transfer"),
        type: "subagent_spawn",
        sourceThreadId: parentThreadId,
        sourcePoint: point(parentThreadId, sourceRunId),
        sourceProvider: parent.thread.defaultProvider,
        targetProvider: input.provider,
        createdBy: "agent",
      },
    });
    const childRunId = ids.next("run");
    await repo.execute({
      type: "QueueRun",
      data: {
        threadId: childId,
        runId: childRunId,
        messageId: ids.next("message"),
        text: withAskingTurn(input.prompt, parent, parentRunId),
        provider: input.provider,
        model: input.model ?? null,
      },
    });
    const settled = executor.waitForRun(childRunId);
    // Interrupting the parent interrupts the child (see RunExecutor.interruptChildren).
    executor.subagents.delegated(childId, parentThreadId);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void executor.stopChild(childId).catch(() => undefined);
    }, limits.timeoutMs);
    try {
      executor.kick(childId);
      await settled;
    } finally {
      clearTimeout(timer);
      executor.subagents.undelegated(childId);
    }
    const child = await repo.thread(childId);
    const run = child.runs.get(childRunId);
    const answer = lastAssistantText(child.turnItems, childRunId);
    if (timedOut) {
      return {
        output: `Subagent timed out after ${Math.round(limits.timeoutMs / 1000)} s and was interrupted (run ${run?.status ?? "unknown"})`,
        isError: true,
      };
    }
    if (run?.status !== "completed") {
      return {
        output:
          `Subagent run ended ${run?.status ?? "unknown"}: ${run?.error ?? answer ?? ""}`.trim(),
        isError: true,
      };
    }
    const output = await recordResult(
      repo,
      ids,
      parentThreadId,
      parentRunId,
      childId,
      childRunId,
      answer ?? "",
    );
    return { output };
  };
}

/**
 * The child sees the turn that asked for it: the parent's handoff covers its completed runs only,
 * so the request being worked on right now travels with the task.
 */
function withAskingTurn(
  prompt: string,
  parent: Awaited<ReturnType<AggregateRepository["thread"]>>,
  parentRunId: RunId,
): string {
  const run = parent.runs.get(parentRunId);
  const asked = run ? parent.messages.get(run.userMessageId)?.text : undefined;
  if (!asked) return prompt;
  const quoted = asked.length > 2000 ? `${asked.slice(0, 2000)}…` : asked;
  return `${prompt}\n\n(Delegated from thread "${parent.thread?.title ?? parent.thread?.id}" while it works on this request:\n${quoted})`;
}

function lastAssistantText(
  items: Awaited<ReturnType<AggregateRepository["thread"]>>["turnItems"],
  runId: RunId,
): string | null {
  let best: { sortKey: number; text: string } | null = null;
  for (const { item, sortKey } of items.values()) {
    if (item.runId !== runId || item.type !== "assistant_message") continue;
    if (!best || sortKey > best.sortKey) best = { sortKey, text: item.text };
  }
  return best?.text ?? null;
}

/**
 * Records the child's result in the parent as a consumed `subagent_result` transfer and returns
 * the text the parent's tool call receives: the child's answer, plus what its run left (files,
 * failed commands, open tasks), built by the handoff builder (issue 25 item 5).
 */
async function recordResult(
  repo: AggregateRepository,
  ids: IdSource,
  parentThreadId: ThreadId,
  parentRunId: RunId,
  childId: ThreadId,
  childRunId: RunId,
  answer: string,
): Promise<string> {
  const parent = await repo.thread(parentThreadId);
  const parentRun = parent.runs.get(parentRunId);
  const child = await repo.thread(childId);
  const childRun = child.runs.get(childRunId);
  const toProviderThreadId = parentRun?.providerThreadId;
  if (!parentRun || !childRun || !toProviderThreadId) return answer;
  const transferId = ids.next("transfer");
  const handoffId = ids.next("handoff");
  const result = buildSubagentResult({
    transfer: {
      id: transferId,
      type: "subagent_result",
      sourceThreadId: childId,
      targetThreadId: parentThreadId,
    },
    selection: [{ threadId: childId, ordinals: [childRun.ordinal] }],
    runs: [childRun],
    turnItems: [...child.turnItems.values()]
      .filter((entry) => entry.item.runId === childRunId)
      .sort((a, b) => a.sortKey - b.sortKey)
      .map((entry) => entry.item),
    targetProvider: parentRun.provider,
    toProviderThreadId,
    answer,
  });
  await repo.execute({
    type: "CreateContextTransfer",
    data: {
      threadId: parentThreadId,
      transferId,
      type: "subagent_result",
      sourceThreadId: childId,
      sourcePoint: {
        threadId: childId,
        runId: childRunId,
        checkpointId: null,
        turnItemId: null,
        providerThreadRef: null,
        providerTurnRef: null,
      },
      sourceProvider: childRun.provider,
      targetProvider: parentRun.provider,
      createdBy: "agent",
      targetRunId: parentRunId,
    },
  });
  await repo.execute({
    type: "RecordHandoff",
    data: {
      threadId: parentThreadId,
      handoffId,
      transferId,
      targetRunId: parentRunId,
      kind: "portable_context",
      strategy: "manual_context",
      fromProviderThreadIds: childRun.providerThreadId ? [childRun.providerThreadId] : [],
      toProviderThreadId,
      coveredRunOrdinals: { from: childRun.ordinal, to: childRun.ordinal },
      summaryText: result.text,
      payload: HandoffPayload.parse(result.payload),
      status: "ready",
    },
  });
  await repo.execute({
    type: "ResolveContextTransfer",
    data: {
      threadId: parentThreadId,
      transferId,
      resolution: { strategy: "portable_context", contextHandoffId: handoffId },
    },
  });
  await repo.execute({
    type: "ConsumeContextTransfer",
    data: { threadId: parentThreadId, transferId, runId: parentRunId },
  });
  return result.text;
}
