import { isDomainError, type Run } from "@skein/domain";
import type { ThreadSettings } from "@skein/domain/provider";
import { LeaseLostError } from "../recovery/lease-fence.ts";
import type { BegunRun } from "./run-life.ts";
import { message, type ThreadScope } from "./runner-context.ts";
import { startRun } from "./run-start-runner.ts";
import { leftQueueHead } from "./queue-head.ts";
import { firstTurnInput } from "./turn-input.ts";
import { describeStartFailure, workspaceProblem } from "./workspace-check.ts";
import { runtimeEnvOf } from "../workspaces/worktree-setup.ts";
import { netDiffReader } from "../transfers/net-diffs.ts";

/**
 * A run ready for its first turn, in its folder; or why it cannot start, in words; or, B20, no
 * longer first in the queue (withdrawn or moved back while it was being started).
 */
export type Prepared = (BegunRun & { cwd: string }) | { refused: string } | { overtaken: true };

/**
 * Everything before a run's first turn: its folder is looked at (B1), the thread's baseline
 * captured, its start recorded through the run-start workflow (context, provider thread,
 * transfer, handoff: one append), and its first turn's input put together.
 */
export async function prepareRun(scope: ThreadScope, run: Run): Promise<Prepared> {
  const { ctx, threadId } = scope;
  const state = await ctx.repo.thread(threadId);
  const thread = state.thread!;
  const text = state.messages.get(run.userMessageId)?.text ?? "";
  const project = await ctx.repo.project(thread.projectId);
  const cwd = thread.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
  // Folders get moved and deleted: look before opening a runtime in one (B1).
  const problem = await workspaceProblem(cwd);
  if (problem) return { refused: problem };
  // Issue 26: a PORT of its own in every run's environment, worktree or not.
  let port = thread.port ?? null;
  try {
    port = (await ctx.threadPort?.(threadId)) ?? port;
  } catch (error) {
    if (isDomainError(error)) return { refused: error.message };
    throw error;
  }
  // A new worktree's setup script (issue 26) runs before its first run; a failed one is shown
  // on the thread and the run goes ahead.
  await ctx.workspaceSetups?.settled(state);
  // Issue 25: the project may have the source provider write a pending transfer's handoff.
  await ctx.handoffsBeforeStart?.(state, run);
  // What the thread's first checkpoint diffs from, taken before the provider's first turn can
  // touch the folder. Starting a provider thread only reads it, so the capture (git, a few
  // hundred ms on a new thread) runs alongside that start instead of ahead of it (issue 34).
  // The turn waits only until git has read the folder; the baseline's commit is written while
  // the turn runs. It never throws: a failed capture is logged and the run goes on without one.
  const baseline = ctx.checkpoints.captureBaseline(threadId, state, cwd);
  const appTools = ctx.toolsFor(threadId, run.id);
  const settings: ThreadSettings = {
    cwd,
    model: run.model ?? null,
    runtimeMode: thread.runtimeMode,
    ...(appTools ? { tools: appTools.tools } : {}),
    ...(port != null ? { env: runtimeEnvOf({ port }) } : {}),
  };
  let prepared: Awaited<ReturnType<typeof startRun>>;
  try {
    const deps = {
      repo: ctx.repo,
      sessions: ctx.sessions,
      ids: ctx.ids,
      appends: scope.appends,
      netDiffs: netDiffReader(ctx.checkpoints, ctx.log),
    };
    prepared = await startRun(deps, threadId, run, text, settings);
  } catch (error) {
    await baseline;
    if (error instanceof LeaseLostError || scope.lost()) throw error;
    if (await leftQueueHead(ctx.repo, threadId, run.id)) return { overtaken: true };
    ctx.log.warn({ threadId, runId: run.id, error: message(error) }, "run could not start");
    return { refused: await describeStartFailure(error, run.provider, cwd) };
  }
  await baseline;
  if ("failed" in prepared) return { refused: prepared.failed };
  const active = ctx.turns.begin(threadId, run.id, prepared.session, prepared.nativeThreadRef);
  // B20: an edit is accepted until the start's append, so read the message as the start sealed it.
  const sealed = await ctx.repo.thread(threadId);
  const input = await firstTurnInput(ctx.attachments, sealed, run, prepared.handoff);
  return { run, active, input, settings, onAppToolCall: appTools?.handler, cwd };
}
