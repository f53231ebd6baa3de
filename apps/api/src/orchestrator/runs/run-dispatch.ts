import type { Attachment, Run } from "@skein/domain";
import type { ThreadSettings, TurnAttachment, TurnInput } from "@skein/domain/provider";
import { LeaseLostError } from "../recovery/lease-fence.ts";
import { failRun } from "./run-failures.ts";
import { liveRun } from "./run-life-runner.ts";
import { message, type RunnerContext, type ThreadScope } from "./runner-context.ts";
import { startRun } from "./run-start-runner.ts";
import { turnTextOf } from "./plan-context.ts";
import { describeStartFailure, workspaceProblem } from "./workspace-check.ts";

/** How a run's dispatch ended: its provider turn started, or it failed before (with why). */
export type Dispatch = { started: true } | { started: false; failure: string };

/**
 * Executes one queued run: looks at its folder, records its start through the run-start
 * workflow (context, provider thread, transfer, handoff: one append), then lives it through
 * the run-life workflow and captures what it changed.
 */
export async function dispatchRun(scope: ThreadScope, run: Run): Promise<Dispatch> {
  const { ctx, threadId } = scope;
  const state = await ctx.repo.thread(threadId);
  const thread = state.thread!;
  const text = state.messages.get(run.userMessageId)?.text ?? "";
  const project = await ctx.repo.project(thread.projectId);
  const cwd = thread.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
  // Folders get moved and deleted: look before opening a runtime in one (B1).
  const problem = await workspaceProblem(cwd);
  if (problem) return refuse(scope, run, problem);
  // Before any provider work touches the folder: what the thread's first checkpoint diffs from.
  await ctx.checkpoints.captureBaseline(threadId, state, cwd);
  const appTools = ctx.toolsFor(threadId, run.id);
  const settings: ThreadSettings = {
    cwd,
    model: run.model ?? null,
    runtimeMode: thread.runtimeMode,
    ...(appTools ? { tools: appTools.tools } : {}),
  };
  let prepared: Awaited<ReturnType<typeof startRun>>;
  try {
    const deps = { repo: ctx.repo, sessions: ctx.sessions, ids: ctx.ids, appends: scope.appends };
    prepared = await startRun(deps, threadId, run, text, settings);
  } catch (error) {
    if (error instanceof LeaseLostError || scope.lost()) throw error;
    ctx.log.warn({ threadId, runId: run.id, error: message(error) }, "run could not start");
    return refuse(scope, run, await describeStartFailure(error, run.provider, cwd));
  }
  if ("failed" in prepared) return refuse(scope, run, prepared.failed);
  const { session, nativeThreadRef } = prepared;
  const active = ctx.turns.begin(threadId, run.id, session, nativeThreadRef);
  const input: TurnInput = {
    text: turnTextOf(state, run, text),
    interactionMode: run.interactionMode ?? "default",
    effort: run.effort ?? null,
    context: prepared.handoff
      ? { handoffId: prepared.handoff.handoffId, text: prepared.handoff.text }
      : null,
    ...(run.compact ? { compact: true } : {}),
    ...(await attachmentsOf(ctx, state.messages.get(run.userMessageId)?.attachments)),
  };
  await liveRun(scope, { run, active, input, settings, onAppToolCall: appTools?.handler });
  const ended = (await ctx.repo.thread(threadId)).runs.get(run.id);
  if (ended) await ctx.checkpoints.captureRun(threadId, ended, cwd);
  return { started: true };
}

/** Fails a run that could not start, once, and says so to the drain. */
async function refuse(scope: ThreadScope, run: Run, failure: string): Promise<Dispatch> {
  scope.ctx.log.warn(
    { threadId: scope.threadId, runId: run.id, failure },
    "run failed before it started",
  );
  await failRun(scope, run.id, failure);
  return { started: false, failure };
}

/** E16: the message's stored files as the adapter reads them (local paths, sniffed types). */
async function attachmentsOf(
  ctx: RunnerContext,
  attachments: readonly Attachment[] | undefined,
): Promise<{ attachments?: TurnAttachment[] }> {
  const store = ctx.attachments;
  if (!attachments?.length || !store) return {};
  const files = await Promise.all(
    attachments.map(async (a) => {
      const stored = await store.get(a.ref);
      return { name: a.name, mimeType: stored.mimeType, path: stored.path };
    }),
  );
  return { attachments: files };
}
