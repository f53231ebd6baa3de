/**
 * The Skein API contract: the router (every procedure with its input schemas), the tRPC setup it
 * runs on, and the ports it is written against. A host (apps/api) implements the ports and serves
 * the router; a client (the web UI, another service) compiles against `AppRouter` and the view
 * types here and runs `@skein/client`, built JavaScript, so it never loads any of this.
 */
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { SkeinClient as Client } from "@skein/client";
import type { AppRouter } from "./root.ts";

export { type AppRouter, appRouter } from "./root.ts";
export { createCallerFactory } from "./trpc.ts";
export type { CallerAuth, SkeinContext } from "./context.ts";
export { apiErrorOf, rethrowMapped, toTRPCError } from "./errors.ts";
export {
  MAX_BODY_BYTES,
  MAX_IMPORT_BODY_BYTES,
  MAX_REPLAY_EVENTS,
  MAX_TEXT_BYTES,
  SSE_PING_MS,
  SSE_RECONNECT_AFTER_INACTIVITY_MS,
} from "./limits.ts";
export type { CallOrigin, OrchestratorCommands } from "./ports/commands.ts";
export type { SkeinServices } from "./ports/services.ts";
export type { HandoffDraft } from "./views/handoff-draft.ts";
export type {
  BringBackCode,
  BringBackCodeInput,
  CheckResult,
  CodeBroughtBack,
  CompareInput,
  FanOutAnswer,
  FanOutFork,
  FanOutInput,
  ForkComparison,
  ForkFileChange,
  ForkOverlaps,
  ForkSummary,
  CompareDiff,
  CompareDiffInput,
  ForkDiff,
  PickWinnerAnswer,
  PickWinnerInput,
  SweepInput,
  SweepResult,
  PurgeInput,
  PurgeResult,
  SweptWorktree,
} from "./views/parallel.ts";
export type {
  DetailWindow,
  DetailWindowInput,
  PendingRequestList,
  ProjectList,
  ProviderSessionsData,
  ProviderSessionsView,
  RawFramesView,
  RawFrameView,
  ShellPage,
  ShellPageInput,
  Snapshotted,
  ThreadDetailData,
  ThreadDetailView,
  ThreadGraphData,
  ThreadGraphView,
  ThreadShells,
  ThreadTimeline,
  TransferData,
  TransferView,
} from "./views/reads.ts";
// Every git/PR view is part of the contract.
export type * from "./views/git.ts";
export type {
  ReviewDiff,
  ReviewDiffInput,
  ReviewFile,
  ReviewPoint,
  ReviewRevertInput,
  RollbackPreview,
  RollbackResult,
} from "./views/review.ts";
export type { ProviderSessionListing, ThreadImportResult } from "./views/threads.ts";
export type {
  LogPosition,
  RawStreamInput,
  RawStreamMessage,
  WatchMessage,
} from "./views/watches.ts";

/** Input types by procedure, e.g. `RouterInputs["thread"]["fork"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output types by procedure, e.g. `RouterOutputs["thread"]["detail"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** The client bound to Skein's router: what `createSkeinClient<AppRouter>(…)` returns. */
export type SkeinClient = Client<AppRouter>;
export {
  DEFAULT_PUSH_SETTINGS,
  type NoticeKind,
  PushSettings,
  PushSubscriptionInput,
  QuietHours,
  type SkeinNotifications,
} from "./views/notify.ts";
export type { UsageRow, UsageSummary } from "./views/usage.ts";
