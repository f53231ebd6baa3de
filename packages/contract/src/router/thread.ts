import {
  CheckpointId,
  FanOutTargets,
  ForkSourcePointSpec,
  MAX_FAN_OUT,
  InteractionMode,
  NativeRef,
  nameProblem,
  PlanId,
  ReasoningEffort,
  NotFoundError,
  RollbackScope,
  OnUsageLimit,
  ProjectId,
  ProviderKind,
  RunId,
  RuntimeMode,
  ThreadExportDocument,
  ThreadId,
  ThreadWorkspaceMode,
} from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { workspaceRootsOf } from "./import-roots.ts";
import { originOf, startedBy } from "../context.ts";
import { CHECK_MAX_TIMEOUT_MS, MAX_SHELL_PAGE, MAX_WINDOW_RUNS } from "../limits.ts";
import { apiProcedure } from "../trpc.ts";
import { LastEventId, MessageText, ModelName, OptionalCommandId, Title } from "./inputs.ts";

const MAX_ATTACHMENTS = 10;
/** The same bound the domain's ReorderQueue holds. */
const MAX_QUEUE_ORDER = 1_000;
const AttachmentRef = z.object({
  ref: z.string().regex(/^sha256:[0-9a-f]{64}$/, "an attachment ref is sha256:<64 hex digits>"),
  // B4: the name is stored with the message and shown to the provider, so no NUL, no lone surrogate.
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .superRefine((name, ctx) => {
      const problem = nameProblem(name);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
});
const ThreadRef = z.object({ threadId: ThreadId, commandId: OptionalCommandId });
/** Time travel: read as of this log sequence (the head when left out). */
const AtSequence = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional();
/** B7: a page of the thread list; `cursor` is a previous page's `nextCursor`. */
const ShellPage = z.object({
  projectId: ProjectId.optional(),
  query: z.string().max(200).optional(),
  archived: z.boolean().optional(),
  cursor: z.string().max(1_000).optional(),
  limit: z.number().int().min(1).max(MAX_SHELL_PAGE).optional(),
  atSequence: AtSequence,
});

/** B7: a window of runs; `before`/`after` are a previous window's cursors. */
const DetailWindow = z
  .object({
    limit: z.number().int().min(1).max(MAX_WINDOW_RUNS).optional(),
    before: z.string().max(1_000).optional(),
    after: z.string().max(1_000).optional(),
    aroundRun: z.number().int().min(1).optional(),
  })
  .refine(
    (w) => [w.before, w.after, w.aroundRun].filter((v) => v !== undefined).length <= 1,
    "at most one of before, after and aroundRun",
  );

/** A sweep of what is past its grace period: `force` takes uncaptured work too, `dryRun` reports. */
const GraceSweep = z.object({
  graceMs: z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3_600_000)
    .optional(),
  force: z.boolean().optional(),
  dryRun: z.boolean().optional(),
});

export const threadRouter = {
  create: apiProcedure
    .input(
      z.object({
        projectId: ProjectId,
        title: Title.optional(),
        provider: ProviderKind.optional(),
        model: ModelName.optional(),
        effort: ReasoningEffort.nullable().optional(),
        runtimeMode: RuntimeMode.optional(),
        interactionMode: InteractionMode.optional(),
        /**
         * Issue 26: `worktree` (the default in a git project, from the project's settings) gives
         * the thread its own git worktree and branch; `local` works in the project's folder.
         */
        workspace: ThreadWorkspaceMode.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // CreateThread is decided on the new thread's stream alone; nothing downstream looks the
      // project up, so an unknown one is caught here.
      if (!(await ctx.services.reads.projectExists(input.projectId))) {
        throw new NotFoundError("project", input.projectId);
      }
      return ctx.services.commands.createThread({ ...input, ...startedBy(ctx) });
    }),

  /** Returns once the run is recorded; the run itself proceeds in the background. */
  sendMessage: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        text: MessageText,
        provider: ProviderKind.optional(),
        model: ModelName.optional(),
        /** Reasoning effort for this message (the model's levels: `provider.models`). */
        effort: ReasoningEffort.nullable().optional(),
        /** `plan`: the provider proposes a plan instead of acting (B5). */
        interactionMode: InteractionMode.optional(),
        /** B5 "implement this plan": runs in default mode with the plan as context. */
        sourcePlanRef: z.object({ threadId: ThreadId, planId: PlanId }).optional(),
        /** A fork of this thread whose work this message brings back (T8). */
        bringBackFrom: ThreadId.optional(),
        /**
         * B9, with `bringBackFrom`: `squash` merges the fork's files into this workspace first
         * (CONFLICT listing the files in `data.issues` when they clash; nothing is changed);
         * `merge` also commits them on the checked-out branch (one work commit and a merge
         * commit naming the fork), only in a clean checkout on a branch (else PRECONDITION_FAILED
         * saying to use `squash`).
         */
        code: z.enum(["squash", "merge", "none"]).optional(),
        /** E16: files uploaded through `POST /attachments`, by the ref the upload answered. */
        attachments: z.array(AttachmentRef).max(MAX_ATTACHMENTS).optional(),
        /** Reviewed handoff text for this message's transfer (provider switch, bring-back). */
        handoffText: MessageText.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.sendMessage(input)),

  /**
   * Issue 26: "code only" of a bring-back: the fork's files merged into this workspace with no
   * message, run or handoff (`sendMessage` with `bringBackFrom` brings the conversation, with or
   * without the code). CONFLICT listing the clashing files in `data.issues`, nothing changed;
   * PRECONDITION_FAILED while a run works here or when the fork is not this thread's. A safety
   * checkpoint comes first: `thread.rollback` to the answer's `undoCheckpointId` undoes it.
   */
  bringBackCode: apiProcedure
    .input(
      z
        .object({ threadId: ThreadId, forkThreadId: ThreadId, commandId: OptionalCommandId })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.bringBackCode(input)),

  fork: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        sourcePoint: ForkSourcePointSpec.optional(),
        title: Title.optional(),
        isolatedWorkspace: z.boolean().optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.services.commands.forkThread({ ...input, ...startedBy(ctx) }),
    ),

  /**
   * B9: one message fanned out to 1–8 isolated forks of the latest stable point, one per target
   * (provider, optional model); answers the forks at once, their runs proceed in the background
   * within the server's fan-out concurrency limit.
   */
  fanOut: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        text: MessageText,
        targets: FanOutTargets,
        isolated: z.literal(true),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.fanOut({ ...input, ...startedBy(ctx) })),

  /**
   * B9: forks side by side: latest run status, duration and usage, files changed since the fork
   * point with +/-, overlap warnings between live forks, and optionally a check command's result
   * per worktree (bounded in time and output).
   */
  compare: apiProcedure
    .input(
      z.object({
        threadIds: z.array(ThreadId).min(1).max(MAX_FAN_OUT),
        checkCommand: z.string().trim().min(1).max(2_000).optional(),
        checkTimeoutMs: z.number().int().min(1_000).max(CHECK_MAX_TIMEOUT_MS).optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.services.commands.compareForks(input)),

  /**
   * B9: each fork's unified diff since its fork point, read from its worktree as it is now (the
   * files `compare` counts): one `path`, or every file. Patches are bounded per file and per
   * answer (a file past the bound comes with its +/- counts and `truncated`).
   */
  compareDiff: apiProcedure
    .input(
      z
        .object({
          threadIds: z.array(ThreadId).min(1).max(MAX_FAN_OUT),
          path: z.string().min(1).max(4096).optional(),
        })
        .strict(),
    )
    .query(({ ctx, input }) => ctx.services.commands.compareDiff(input)),

  /**
   * B9 "pick the winner": brings `winnerThreadId` back into this thread (its files squashed in
   * and its conversation sent with `text`, as `sendMessage` with `bringBackFrom` does) and then
   * archives each of `others`. A refused bring-back (CONFLICT naming the files in `data.issues`)
   * refuses it all, nothing changed. Idempotent by `commandId`: a retry finishes what is missing.
   */
  pickWinner: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          winnerThreadId: ThreadId,
          others: z.array(ThreadId).max(MAX_FAN_OUT),
          text: MessageText,
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.pickWinner(input)),

  /**
   * B9 overlap warnings while forks run: each fork's changed files and the files two live forks
   * both changed, sent at once and again whenever that changes (worktrees read every
   * `intervalMs`).
   */
  watchOverlaps: apiProcedure
    .input(
      z.object({
        threadIds: z.array(ThreadId).min(1).max(MAX_FAN_OUT),
        intervalMs: z.number().int().min(250).max(60_000).optional(),
      }),
    )
    .subscription(({ ctx, input, signal }) => ctx.services.watches.forkOverlaps(input, signal)),

  /**
   * B9 hygiene: removes worktrees of archived, merged and orphaned forks past `graceMs`; a
   * worktree holding work no checkpoint captured stays unless `force`. `dryRun` only reports.
   */
  sweepWorktrees: apiProcedure
    .input(GraceSweep)
    .mutation(({ ctx, input }) => ctx.services.commands.sweepWorktrees(input)),

  /** Steer and interrupt run where the thread's runtime is (forwarded to its instance). */
  steer: apiProcedure
    .input(z.object({ threadId: ThreadId, text: MessageText, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) => ctx.services.commands.steer(input, originOf(ctx))),

  interrupt: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.interrupt(input, originOf(ctx))),

  /** P6: the provider compacts the thread's context now, as a run of its own. */
  compact: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.compact(input)),

  /** E4: queues the latest interrupted/failed run again; it starts as a `retry` attempt. */
  retryRun: apiProcedure
    .input(z.object({ threadId: ThreadId, runId: RunId, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) => ctx.services.commands.retryRun(input)),

  /** B20: a waiting message's new text, until its run starts (then CONFLICT). */
  editQueued: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        runId: RunId,
        text: MessageText,
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.editQueued(input)),

  /**
   * B20: the waiting messages in the order they should start; each waiting one named once, else
   * CONFLICT (the queue changed: read the thread again).
   */
  reorderQueue: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        runIds: z.array(RunId).min(1).max(MAX_QUEUE_ORDER),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.reorderQueue(input)),

  /** B20: a waiting message is withdrawn and never reaches the provider; a started one is CONFLICT. */
  withdrawQueued: apiProcedure
    .input(z.object({ threadId: ThreadId, runId: RunId, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) => ctx.services.commands.withdrawQueued(input)),

  /**
   * B14: undoes what the agent's runs after the checkpoint did: their files (scope `code`), the
   * runs themselves (`conversation`), or both (default). A file the person changed since the agent
   * last wrote it is CONFLICT, naming it, unless `force` (a safety checkpoint is kept first).
   */
  rollback: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        checkpointId: CheckpointId,
        scope: RollbackScope.optional(),
        force: z.boolean().optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.rollback(input)),

  /** What `rollback` with the same input would change, path by path, conflicts marked. */
  rollbackPreview: apiProcedure
    .input(
      z.object({ threadId: ThreadId, checkpointId: CheckpointId, scope: RollbackScope.optional() }),
    )
    .query(({ ctx, input }) => ctx.services.commands.rollbackPreview(input)),

  /** Rename and change the defaults later messages use; an empty change is refused. */
  updateSettings: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        title: Title.optional(),
        defaultProvider: ProviderKind.optional(),
        model: ModelName.optional(),
        effort: ReasoningEffort.nullable().optional(),
        runtimeMode: RuntimeMode.optional(),
        interactionMode: InteractionMode.optional(),
        /** B17: send the PR's new review comments and failing checks to the agent unasked. */
        autoFeedback: z.boolean().optional(),
        /** Issue 32: at a usage limit, wait for its reset and resume, offer a switch, or stop. */
        onUsageLimit: OnUsageLimit.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.updateSettings(input)),

  /** Cancels the thread's queued runs and interrupts its active one. */
  archive: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.archive(input)),

  unarchive: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.unarchive(input)),

  /**
   * Issue 33: a soft delete; CONFLICT while a run is in progress. The thread's worktree and
   * checkpoint refs go with `purgeDeleted` once the grace period is over.
   */
  delete: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.deleteThread(input)),

  /** Purges deleted threads past `graceMs` (default 7 days); `dryRun` only reports. */
  purgeDeleted: apiProcedure
    .input(GraceSweep)
    .mutation(({ ctx, input }) => ctx.services.commands.purgeDeleted(input)),

  /**
   * T9/E9: a sub-agent's child thread becomes a normal thread of its own (CONFLICT for a thread
   * that is not a sub-agent's child or has a run in progress).
   */
  promote: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.services.commands.promote(input)),

  /**
   * P1, one page (B7): newest activity first, filtered by project and title; `archived: true`
   * lists the archived threads instead of the others.
   */
  shells: apiProcedure
    .input(ShellPage.optional())
    .query(({ ctx, input }) =>
      input?.atSequence === undefined
        ? ctx.services.reads.shells(input ?? {})
        : ctx.services.pastReads.shells(input.atSequence, input),
    ),

  /** P2 for one window of runs (B7): the latest 50 unless `window` says otherwise. */
  detail: apiProcedure
    .input(
      z.object({ threadId: ThreadId, window: DetailWindow.optional(), atSequence: AtSequence }),
    )
    .query(({ ctx, input }) =>
      input.atSequence === undefined
        ? ctx.services.reads.detail(input.threadId, input.window)
        : ctx.services.pastReads.detail(input.threadId, input.atSequence, input.window),
    ),

  /** B8: the events of the thread a person can travel back to (the scrubber's stops). */
  timeline: apiProcedure
    .input(z.object({ threadId: ThreadId }))
    .query(({ ctx, input }) => ctx.services.reads.timeline(input.threadId)),

  graph: apiProcedure
    .input(z.object({ threadId: ThreadId, atSequence: AtSequence }))
    .query(({ ctx, input }) =>
      input.atSequence === undefined
        ? ctx.services.reads.graph(input.threadId)
        : ctx.services.pastReads.graph(input.threadId, input.atSequence),
    ),

  /**
   * P3 as a stream (S2): the graph at N, then every later event of the thread's stream and of
   * the provider sessions' streams (a session's status is part of the graph).
   */
  watchGraph: apiProcedure
    .input(z.object({ threadId: ThreadId, lastEventId: LastEventId }))
    .subscription(({ ctx, input, signal }) => ctx.services.watches.graph(input, signal)),

  /** P4: the provider sessions hosting the thread's provider threads, each with those threads. */
  providerSessions: apiProcedure
    .input(z.object({ threadId: ThreadId }))
    .query(({ ctx, input }) => ctx.services.reads.providerSessions(input.threadId)),

  /** P4 as a stream (S2): the sessions at N, then the events that can change them. */
  watchProviderSessions: apiProcedure
    .input(z.object({ threadId: ThreadId, lastEventId: LastEventId }))
    .subscription(({ ctx, input, signal }) => ctx.services.watches.providerSessions(input, signal)),

  /**
   * P1: the first page's snapshot, then every later event of a thread stream that can change a
   * row (S2; events that cannot are not sent).
   */
  watchShells: apiProcedure
    .input(ShellPage.omit({ cursor: true }).extend({ lastEventId: LastEventId }).optional())
    .subscription(({ ctx, input, signal }) => ctx.services.watches.shells(input ?? {}, signal)),

  /** the thread, its sources, project and provider sessions as one document. */
  export: apiProcedure
    .input(z.object({ threadId: ThreadId }))
    .query(({ ctx, input }) => ctx.services.reads.exportThread(input.threadId)),

  /**
   * a document from `thread.export` (any Skein's), appended here; the thread then reads as it
   * read there. The host serves it with a larger body limit than other calls (`MAX_IMPORT_BODY_BYTES`).
   */
  /**
   * B6/E9: one of the person's own native threads (`provider.sessions`) becomes an app thread
   * bound to it, its history recorded as imported runs; the next message resumes it natively.
   * Adopting one twice is CONFLICT (naming the app thread); an unknown one is NOT_FOUND.
   */
  adopt: apiProcedure
    .input(
      z.object({
        projectId: ProjectId,
        provider: ProviderKind,
        providerThreadId: NativeRef,
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.adoptThread(input)),

  import: apiProcedure
    .input(z.object({ document: ThreadExportDocument, commandId: OptionalCommandId }))
    .mutation(async ({ ctx, input }) => {
      // B4 (issue 35): an imported project's folder meets the rule project.create applies.
      for (const root of workspaceRootsOf(input.document)) {
        await ctx.services.workspaces.assertUsable(root);
      }
      return ctx.services.commands.importThread(input);
    }),

  /**
   * P2 snapshot of one window of runs, then every later event of the thread's stream (S2 per
   * window: events of runs outside the window are sent too, so the cursor keeps advancing).
   */
  watchDetail: apiProcedure
    .input(
      z.object({ threadId: ThreadId, lastEventId: LastEventId, window: DetailWindow.optional() }),
    )
    .subscription(({ ctx, input, signal }) => ctx.services.watches.detail(input, signal)),
} satisfies TRPCRouterRecord;
