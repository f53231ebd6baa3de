import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./root.ts";

export { type AppRouter, appRouter } from "./root.ts";
export type { ApiContext } from "./context.ts";
export type {
  ProjectList,
  ThreadDetailView,
  ThreadGraphView,
  ThreadShells,
  TransferView,
} from "./read-models/index.ts";
export type { CodeBroughtBack } from "./orchestrator/parallel/bring-back-code.ts";
export type { CheckResult } from "./orchestrator/commands/check-command.ts";
export type { FanOutAnswer, FanOutFork } from "./orchestrator/parallel/fan-out.ts";
export type {
  ForkComparison,
  ForkFileChange,
  ForkSummary,
} from "./orchestrator/parallel/fork-compare.ts";
export type { SweepResult } from "./orchestrator/parallel/worktree-hygiene.ts";
export type { WatchMessage } from "./subscriptions/watch-stream.ts";
export type { LogPosition } from "./subscriptions/watches.ts";

/** Input types by procedure, e.g. `RouterInputs["thread"]["fork"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output types by procedure, e.g. `RouterOutputs["thread"]["detail"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
