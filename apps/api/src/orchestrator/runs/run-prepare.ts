import {
  type Attachment,
  isDomainError,
  nextQueuedRun,
  type Run,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { ThreadSettings, TurnAttachment, TurnInput } from "@skein/domain/provider";
import type { runStart } from "@skein/transfer";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { LeaseLostError } from "../recovery/lease-fence.ts";
import type { BegunRun } from "./run-life-runner.ts";
import { message, type ThreadScope } from "./runner-context.ts";
import { startRun } from "./run-start-runner.ts";
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
  // A new worktree's setup script (issue 26) runs before its first run; a failed one is shown
  // on the thread and the run goes ahead.
  await ctx.workspaceSetups?.settled(state);
  // Issue 25: the project may have the source provider write a pending transfer's handoff.
  await ctx.handoffsBeforeStart?.(state, run);
  // What the thread's first checkpoint diffs from, taken before the provider's first turn can
  // touch the folder. Starting a provider thread only reads it, so the capture (git, a few
  // hundred ms on a new thread) runs alongside that start instead of ahead of it (issue 34).
  // The turn waits only until git has read the folder; the baseline's commit is written once
  // it is wanted. It never throws: a failed capture is logged and the run goes on without one.
  const baseline = ctx.checkpoints.captureBaseline(threadId, state, cwd);
  // Issue 26: a PORT of its own in every run's environment, worktree or not; a thread's first
  // one is chosen (an append) while git reads the folder.
  let port = thread.port ?? null;
  try {
    port = (await ctx.threadPort?.(threadId)) ?? port;
  } catch (error) {
    await baseline;
    if (isDomainError(error)) return { refused: error.message };
    throw error;
  }
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

/**
 * B20: a run whose start was refused because the person withdrew it or moved another message
 * ahead of it (on any instance) while it was being dispatched. It is not a failure: the queue
 * simply moved on, and the drain picks what is first now.
 */
async function leftQueueHead(
  repo: AggregateRepository,
  threadId: ThreadId,
  runId: RunId,
): Promise<boolean> {
  const state = await repo.refreshThread(threadId);
  const run = state.runs.get(runId);
  if (!run) return false;
  if (run.status === "cancelled") return true;
  return run.status === "queued" && nextQueuedRun(state)?.id !== runId;
}

/**
 * What a run's first turn sends: the person's words (after an accepted plan, B5), the context
 * its start settled (a handoff, T3-T8), and the message's stored files (E16).
 */
async function firstTurnInput(
  store: AttachmentStore | null,
  state: ThreadState,
  run: Run,
  handoff: runStart.SentHandoff | null,
): Promise<TurnInput> {
  const message = state.messages.get(run.userMessageId);
  const files = await attachmentsOf(store, message?.attachments);
  return {
    text: turnTextOf(state, run, message?.text ?? ""),
    interactionMode: run.interactionMode ?? "default",
    effort: run.effort ?? null,
    context: handoff ? { handoffId: handoff.handoffId, text: handoff.text } : null,
    ...(run.compact ? { compact: true } : {}),
    ...(files ? { attachments: files } : {}),
  };
}

/** E16: the message's stored files as the adapter reads them (local paths, sniffed types). */
async function attachmentsOf(
  store: AttachmentStore | null,
  attachments: readonly Attachment[] | undefined,
): Promise<TurnAttachment[] | null> {
  if (!attachments?.length || !store) return null;
  return Promise.all(
    attachments.map(async (a) => {
      const stored = await store.get(a.ref);
      return { name: a.name, mimeType: stored.mimeType, path: stored.path };
    }),
  );
}

/**
 * B5 "implement this plan": what the provider is sent for a run with a `sourcePlanRef`. The plan
 * goes in full ahead of the person's words, so the implementing provider has it whatever it saw
 * before (its own native history, a handoff that caps plans, or nothing); the user message
 * recorded in the thread stays as typed.
 */
function turnTextOf(state: ThreadState, run: Run, text: string): string {
  const ref = run.sourcePlanRef;
  if (!ref) return text;
  const markdown = state.plans.get(ref.planId)?.markdown?.trim();
  if (!markdown) return text;
  return [
    "Implement this plan, which you (or another agent) proposed and the user accepted:",
    "",
    "<accepted_plan>",
    markdown,
    "</accepted_plan>",
    "",
    text,
  ].join("\n");
}
