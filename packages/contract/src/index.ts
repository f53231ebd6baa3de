/**
 * What a client of the Skein API needs to know at compile time, and nothing it would run: the
 * router's type, its inputs and outputs by procedure, and the watch messages. Types only, so a
 * consumer (the web UI, another service) compiles against the server without importing it; the
 * client it runs is `@skein/client`, built JavaScript.
 *
 * The types are read from the host's router (`@skein/api`), where the procedures are defined.
 */
import type { AppRouter } from "@skein/api";
import type { SkeinClient as Client } from "@skein/client";

export type {
  AppRouter,
  CheckResult,
  CodeBroughtBack,
  FanOutAnswer,
  FanOutFork,
  ForkComparison,
  ForkFileChange,
  ForkSummary,
  LogPosition,
  ProjectList,
  RouterInputs,
  RouterOutputs,
  SweepResult,
  ThreadDetailView,
  ThreadGraphView,
  ThreadShells,
  TransferView,
  WatchMessage,
} from "@skein/api";

/** The client bound to Skein's router: what `createSkeinClient<AppRouter>(…)` returns. */
export type SkeinClient = Client<AppRouter>;
