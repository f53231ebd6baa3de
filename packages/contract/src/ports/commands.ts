import type {
  CheckpointId,
  ContextHandoffId,
  ContextTransferId,
  ForkSourcePointSpec,
  HandoffWriter,
  InteractionMode,
  PlanId,
  ProjectId,
  OnUsageLimit,
  ProjectSettings,
  ProjectSettingsPatch,
  ProviderKind,
  RequestAnswers,
  RequestDecision,
  RollbackScope,
  RunId,
  RuntimeMode,
  RuntimeRequestId,
  ThreadExportDocument,
  ThreadId,
  ThreadWorkspaceMode,
} from "@skein/domain";
import type { ProviderAuth, ProviderCapabilityFlags, ProviderModel } from "@skein/domain/provider";
import type { HandoffDraft } from "../views/handoff-draft.ts";
import type {
  BringBackCode,
  BringBackCodeInput,
  CodeBroughtBack,
  CompareDiff,
  CompareDiffInput,
  CompareInput,
  FanOutAnswer,
  FanOutInput,
  ForkComparison,
  PickWinnerAnswer,
  PickWinnerInput,
  SweepInput,
  SweepResult,
  PurgeInput,
  PurgeResult,
} from "../views/parallel.ts";
import type {
  GitCommitAnswer,
  GitCommitInput,
  GitPushAnswer,
  GitPushInput,
  PrFeedbackAnswer,
  PrFeedbackInput,
  PrMergeAnswer,
  PrMergeInput,
  PrOpenAnswer,
  PrOpenInput,
  PrSyncAnswer,
  ReviewCommentAnswer,
  ReviewCommentInput,
} from "../views/git.ts";
import type {
  ReviewDiff,
  ReviewDiffInput,
  ReviewRevertInput,
  RollbackPreview,
  RollbackResult,
} from "../views/review.ts";
import type { ProviderSessionListing, ThreadImportResult } from "../views/threads.ts";

/**
 * Who handed this call over: another Skein instance that forwarded it here (it runs here or is
 * refused, never forwarded again). Absent for a client's own call. Not part of any command.
 */
export type CallOrigin = { forwardedBy: string };

/**
 * What the API (and other in-process callers) may ask of the orchestrator: the command side.
 * Every method validates through the domain, appends through the store and returns a receipt
 * with the sequence of its last event; retries with the same `commandId` return the first
 * receipt, append nothing and repeat no outside effect (S4, B3); the same id with another
 * procedure or payload is a ConflictError naming the first. Failures are domain errors (`code`)
 * the API maps to tRPC codes.
 */
export interface OrchestratorCommands {
  createProject(input: {
    name: string;
    workspaceRoot: string;
    settings?: ProjectSettingsPatch;
    commandId?: string;
  }): Promise<{ projectId: ProjectId; sequence: number }>;
  /** Issue 26: changes the named settings; new threads use them. */
  updateProjectSettings(input: {
    projectId: ProjectId;
    settings: ProjectSettingsPatch;
    commandId?: string;
  }): Promise<{ settings: ProjectSettings; sequence: number }>;
  createThread(input: {
    projectId: ProjectId;
    title?: string;
    provider?: ProviderKind;
    model?: string | null;
    effort?: string | null;
    runtimeMode?: RuntimeMode;
    interactionMode?: InteractionMode;
    /** Issue 26: absent, the project's `threadWorkspace` (git projects only get a worktree). */
    workspace?: ThreadWorkspaceMode;
    /** B19: an outside agent starts the thread (recorded as `createdBy: "agent"`). */
    agentName?: string;
    commandId?: string;
  }): Promise<{ threadId: ThreadId; sequence: number }>;
  /** Records the run and returns at once; the run proceeds in the background. */
  sendMessage(input: {
    threadId: ThreadId;
    text: string;
    provider?: ProviderKind;
    model?: string | null;
    /** Reasoning effort for this message; absent: the thread's (on its provider) or the default. */
    effort?: string | null;
    /** Absent: the thread's mode, or `default` when implementing a plan. */
    interactionMode?: InteractionMode;
    /** B5 "implement this plan": an active proposed plan of this thread, accepted by the run. */
    sourcePlanRef?: { threadId: ThreadId; planId: PlanId };
    bringBackFrom?: ThreadId;
    /**
     * B9, with `bringBackFrom`: `squash` also merges the fork's files into this workspace before
     * the run is recorded (conflicts: a MergeConflictError, nothing changed); `merge` commits
     * them on the checked-out branch too (clean checkout on a branch only: MergeRefusedError
     * otherwise); default `none`.
     */
    code?: BringBackCode;
    /** E16: uploads (`POST /attachments`) to send with the message. */
    attachments?: Array<{ ref: string; name: string }>;
    /** The person's reviewed handoff text: sent as this run's context (`manual_context`). */
    handoffText?: string;
    commandId?: string;
  }): Promise<{ runId: RunId; sequence: number; code?: CodeBroughtBack }>;
  /**
   * Issue 26: a fork's code without its conversation (no message, no run, no handoff): its files
   * are merged into this workspace (CONFLICT naming the files, nothing changed, when they clash),
   * after a safety checkpoint of the workspace (`undoCheckpointId`: rolling back to it undoes
   * the bring-back); recorded on the thread. Idempotent by `commandId`.
   */
  bringBackCode(input: BringBackCodeInput): Promise<CodeBroughtBack & { sequence: number }>;
  /**
   * B9: N isolated forks of the latest stable point, the same message queued on each; their runs
   * start within the fan-out concurrency limit. Idempotent by `commandId`.
   */
  fanOut(input: FanOutInput): Promise<FanOutAnswer>;
  /** B9 read: the forks side by side (status, usage, files changed, overlaps, a check). */
  compareForks(input: CompareInput): Promise<ForkComparison>;
  /** B9 read: each fork's diff since its fork point (one path or all), patches bounded. */
  compareDiff(input: CompareDiffInput): Promise<CompareDiff>;
  /**
   * B9: the winner of a fan-out comes back (code squash + conversation) and the other forks are
   * archived, in one command. A refused bring-back (a clash: MergeConflictError naming the files)
   * refuses the whole command with nothing changed; a retry under the same `commandId` finishes
   * what is missing and redoes nothing.
   */
  pickWinner(input: PickWinnerInput): Promise<PickWinnerAnswer>;
  /**
   * B9 hygiene: removes worktrees (and untouched branches) of archived, merged and orphaned forks
   * past the grace period; never one holding uncaptured work unless `force`. Also run at startup.
   */
  sweepWorktrees(input: SweepInput): Promise<SweepResult>;
  /**
   * P6: queues a compaction run: the provider of the thread's latest run compacts its context
   * (Codex `thread/compact/start`, Claude `/compact`); the run shows a `compaction` item. A
   * provider that cannot (Gemini CLI, ACP agents) gets Skein's compaction: the whole-thread
   * structured summary as a pending handoff, and its next run starts a new provider thread from it.
   */
  compact(input: { threadId: ThreadId; commandId?: string }): Promise<{
    runId: RunId;
    sequence: number;
  }>;
  /** E4: the latest interrupted/failed run is queued again; it starts as a `retry` attempt. */
  retryRun(input: {
    threadId: ThreadId;
    runId: RunId;
    commandId?: string;
  }): Promise<{ runId: RunId; sequence: number }>;
  /** B20: a waiting message's new text; one whose run started is CONFLICT. */
  editQueued(input: {
    threadId: ThreadId;
    runId: RunId;
    text: string;
    commandId?: string;
  }): Promise<{ sequence: number }>;
  /**
   * B20: the waiting messages in the order they should start, every one named once (a queue
   * that changed meanwhile, or a started run named, is CONFLICT).
   */
  reorderQueue(input: {
    threadId: ThreadId;
    runIds: RunId[];
    commandId?: string;
  }): Promise<{ sequence: number }>;
  /** B20: a waiting message is withdrawn and never sent; a started one is CONFLICT. */
  withdrawQueued(input: {
    threadId: ThreadId;
    runId: RunId;
    commandId?: string;
  }): Promise<{ sequence: number }>;
  forkThread(input: {
    threadId: ThreadId;
    sourcePoint?: ForkSourcePointSpec;
    title?: string;
    /** Untitled forks of one fan-out, numbered apart (B16); counted by the API when absent. */
    sibling?: number;
    isolatedWorkspace?: boolean;
    /** B19: an outside agent makes the fork (recorded as `createdBy: "agent"`). */
    agentName?: string;
    commandId?: string;
  }): Promise<{ threadId: ThreadId; transferId: ContextTransferId; sequence: number }>;
  /**
   * Steer, interrupt and respond run where the thread's runtime lives: on another instance they
   * are forwarded there, unless `origin` says another instance already forwarded them here.
   */
  steer(
    input: { threadId: ThreadId; text: string; commandId?: string },
    origin?: CallOrigin,
  ): Promise<{ sequence: number }>;
  interrupt(
    input: { threadId: ThreadId; commandId?: string },
    origin?: CallOrigin,
  ): Promise<{ sequence: number }>;
  /**
   * Another instance asks this one to let go of a native provider thread it wants to resume
   * (instances only: the call must carry the forwarding header).
   */
  releaseProviderThread(input: {
    nativeThreadRef: string;
  }): Promise<{ outcome: "released" | "not_loaded" | "busy" }>;
  /** The models a provider offers here, default first where it says (read from its runtime). */
  providerModels(provider: ProviderKind): Promise<ProviderModel[]>;
  /**
   * A read: the handoff the next message would send on `provider` / with `bringBackFrom`,
   * written by `writer`, else by the project's `handoffWriter` (issue 25 item 3).
   */
  draftHandoff(input: {
    threadId: ThreadId;
    provider: ProviderKind;
    bringBackFrom?: ThreadId;
    writer?: HandoffWriter;
  }): Promise<HandoffDraft>;
  /**
   * A read (issue 29 @-mentions): files of the thread's workspace whose relative path matches
   * `query`, best first, at most `limit`; `truncated` when the walk or the list was cut short.
   */
  searchFiles(input: {
    threadId: ThreadId;
    query: string;
    limit?: number;
  }): Promise<{ paths: string[]; truncated: boolean }>;
  /** A read: per-file unified diffs between two of a thread's checkpoints (issue 17 review). */
  reviewDiff(input: ReviewDiffInput): Promise<ReviewDiff>;
  /** B14: takes back one file or hunk of a review diff, keeping a safety checkpoint first. */
  reviewRevert(input: ReviewRevertInput): Promise<RollbackResult>;
  /**
   * B17: commits the thread's changes in its worktree with the person's git identity. Nothing to
   * commit, a detached HEAD or no identity: PRECONDITION_FAILED in words, nothing recorded.
   */
  gitCommit(input: GitCommitInput): Promise<GitCommitAnswer>;
  /** B17: pushes the thread's branch (never forced); no remote, rejected, auth: in words. */
  gitPush(input: GitPushInput): Promise<GitPushAnswer>;
  /** B17: opens the pull request for the thread's pushed branch (one per branch). */
  openPullRequest(input: PrOpenInput): Promise<PrOpenAnswer>;
  /** B17: polls the thread's pull request now. */
  syncPullRequest(input: { threadId: ThreadId }): Promise<PrSyncAnswer>;
  /** B17: review comments and failing checks become messages to the thread's agent. */
  sendPullRequestFeedback(input: PrFeedbackInput): Promise<PrFeedbackAnswer>;
  /** B17: a comment on a diff line in Review becomes a message with its file, line and hunk. */
  sendReviewComment(input: ReviewCommentInput): Promise<ReviewCommentAnswer>;
  /** B17: merges the thread's pull request by the repository's allowed method. */
  mergePullRequest(input: PrMergeInput): Promise<PrMergeAnswer>;
  /**
   * B14: undoes the agent's changes since the checkpoint (scope `code`), its runs (`conversation`)
   * or both. Paths the person changed since the agent last wrote them are CONFLICT unless `force`,
   * which keeps a safety checkpoint first.
   */
  rollback(input: {
    threadId: ThreadId;
    checkpointId: CheckpointId;
    scope?: RollbackScope;
    force?: boolean;
    commandId?: string;
  }): Promise<RollbackResult>;
  /** A read: what `rollback` would change, path by path, and which paths conflict. */
  rollbackPreview(input: {
    threadId: ThreadId;
    checkpointId: CheckpointId;
    scope?: RollbackScope;
  }): Promise<RollbackPreview>;
  /** Cancels the thread's queued runs and interrupts its active one (issue 13). */
  archive(input: { threadId: ThreadId; commandId?: string }): Promise<{ sequence: number }>;
  unarchive(input: { threadId: ThreadId; commandId?: string }): Promise<{ sequence: number }>;
  /**
   * Issue 33: a soft delete (the thread leaves every list and takes no work; queued runs are
   * cancelled). CONFLICT while a run is in progress. `purgeDeleted` removes what it left later.
   */
  deleteThread(input: { threadId: ThreadId; commandId?: string }): Promise<{ sequence: number }>;
  /** Deletes the project and every thread of it; CONFLICT (nothing deleted) while one runs. */
  deleteProject(input: {
    projectId: ProjectId;
    commandId?: string;
  }): Promise<{ threadsDeleted: number; sequence: number }>;
  /**
   * Removes the worktrees and checkpoint refs of threads deleted longer ago than the grace
   * period, each exactly once across instances. Also run at startup.
   */
  purgeDeleted(input?: PurgeInput): Promise<PurgeResult>;
  /**
   * T9/E9: a sub-agent's child thread becomes a normal thread: listed on its own, no longer
   * following its parent's sub-agent nor stopped with its parent; a message continues it.
   */
  promote(input: { threadId: ThreadId; commandId?: string }): Promise<{ sequence: number }>;
  /** Title and defaults for later messages; at least one must be given. */
  updateSettings(input: {
    threadId: ThreadId;
    title?: string;
    defaultProvider?: ProviderKind;
    model?: string | null;
    effort?: string | null;
    runtimeMode?: RuntimeMode;
    interactionMode?: InteractionMode;
    autoFeedback?: boolean;
    onUsageLimit?: OnUsageLimit;
    commandId?: string;
  }): Promise<{ sequence: number }>;
  /** A thread exported elsewhere, appended here stream by stream (see thread-import.ts). */
  importThread(input: {
    document: ThreadExportDocument;
    commandId?: string;
  }): Promise<ThreadImportResult>;
  /** B6: the person's own native sessions of `provider` that ran in `workspaceRoot`. */
  providerSessions(input: {
    provider: ProviderKind;
    workspaceRoot: string;
    limit?: number;
  }): Promise<ProviderSessionListing[]>;
  /** B6/E9: one of those sessions becomes an app thread bound to it (see adopt-sessions.ts). */
  adoptThread(input: {
    projectId: ProjectId;
    provider: ProviderKind;
    providerThreadId: string;
    commandId?: string;
  }): Promise<{ threadId: ThreadId; importedRuns: number; sequence: number }>;
  respondToRequest(
    input: {
      requestId: RuntimeRequestId;
      decision: RequestDecision;
      answers?: RequestAnswers;
      commandId?: string;
    },
    origin?: CallOrigin,
  ): Promise<{ sequence: number }>;
  /**
   * On a pending transfer this previews the handoff its next run would send on `provider`,
   * written by `writer`, else by the project's `handoffWriter` (issue 25 item 3).
   */
  regenerateHandoff(input: {
    transferId: ContextTransferId;
    provider?: ProviderKind;
    writer?: HandoffWriter;
    commandId?: string;
  }): Promise<{ handoffId: ContextHandoffId; sequence: number }>;
  editHandoff(input: {
    transferId: ContextTransferId;
    text: string;
    commandId?: string;
  }): Promise<{ handoffId: ContextHandoffId; sequence: number }>;
  /** B15: cached briefly; `refresh` checks every provider again at once. */
  providerStatus(input?: { refresh?: boolean }): Promise<
    Array<{
      provider: ProviderKind;
      /** The name a person knows it by (a configured ACP agent's own `name`, B18). */
      name: string;
      found: boolean;
      version: string | null;
      /** Found and authenticated: a message to it is accepted. */
      ready: boolean;
      /** Why it is not ready, with the fix in words. */
      lastError: string | null;
      /** How it authenticates (null: not checked, e.g. the provider is not configured). */
      auth: ProviderAuth | null;
      /** The adapter's own capability declarations (null: the provider is not configured). */
      capabilities: ProviderCapabilityFlags | null;
    }>
  >;
  /** Stops accepting work, interrupts running turns, closes provider runtimes. */
  shutdown(): Promise<void>;
}
