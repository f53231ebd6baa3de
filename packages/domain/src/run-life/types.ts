import type { Command } from "../commands.ts";
import type { ProviderKind } from "../entities/common.ts";
import type { UsageLimitHit } from "../entities/usage-limit.ts";
import type { IdSource, ProviderTurnId, RunId, ThreadId } from "../ids.ts";
import type { ProviderFailure } from "../provider/provider-failure.ts";
import type { AttemptPolicy } from "./attempt-policy.ts";
import type { AttemptKind } from "./failure-policy.ts";

type CommandOf<T extends Command["type"]> = Extract<Command, { type: T }>;

// ---------------------------------------------------------------- inputs: facts

/** A run's start is recorded (see run-start); its life begins with its first provider turn. */
export type RunBegan = {
  type: "RunBegan";
  data: { threadId: ThreadId; runId: RunId; provider: ProviderKind };
};
/**
 * The provider turn exists natively. `interruptRequested`: the person interrupted the run
 * before the turn could be stopped natively, so it is stopped as soon as it is recorded.
 */
export type TurnStarted = {
  type: "TurnStarted";
  data: { nativeTurnRef: string | null; interruptRequested: boolean };
};
/** The provider refused to start the turn at all (its runtime died, or it rejected the input). */
export type TurnRefused = { type: "TurnRefused"; data: { failure: ProviderFailure } };
/**
 * A watcher saw the turn stall: the provider sent nothing for the idle bound, or the runtime
 * kept retrying a model it cannot reach. The turn is stopped; its failure follows as TurnFailed.
 */
export type TurnStalled = { type: "TurnStalled"; data: { reason: "idle" | "model_unreachable" } };
/**
 * The turn failed, before its end is recorded. `runtimeAlive`: the runtime is still there (a
 * dead one needs a new runtime). `modelUnreachable`: the runtime was still retrying a model it
 * could not reach (B15), so another attempt would only retry too. `halted`: the server stops or
 * the lease is gone. `interruptRequested` / `steered`: the person stopped or steered the turn.
 */
export type TurnFailed = {
  type: "TurnFailed";
  data: {
    failure: ProviderFailure;
    runtimeAlive: boolean;
    modelUnreachable: boolean;
    halted: boolean;
    interruptRequested: boolean;
    steered: boolean;
  };
};
/**
 * The turn's end is recorded. `halted`: the server is stopping. `restartWith`: app-level
 * steering (R1) asked for a new turn with this text once this one stopped.
 */
export type TurnEnded = {
  type: "TurnEnded";
  data: { halted: boolean; restartWith: string | null };
};
/** The pause before a new attempt is over (or cut short: `halted`). */
export type RetryDue = { type: "RetryDue"; data: { halted: boolean } };
/** The run is on a live runtime that has its provider thread loaded again. */
export type Reattached = { type: "Reattached"; data: Record<string, never> };
export type ReattachFailed = { type: "ReattachFailed"; data: { reason: string } };
/** Another instance took the thread's lease over: it ends the run; nothing more is appended. */
export type LeaseLost = { type: "LeaseLost"; data: Record<string, never> };

export type RunLifeInput =
  | RunBegan
  | TurnStarted
  | TurnRefused
  | TurnStalled
  | TurnFailed
  | TurnEnded
  | RetryDue
  | Reattached
  | ReattachFailed
  | LeaseLost;

// ---------------------------------------------------------------- outputs: decisions

/**
 * Start a provider turn. `text` null: the same input as the turn before (the run's own, for the
 * first); otherwise the steering text, with no handoff context (R1).
 */
export type StartTurn = {
  type: "StartTurn";
  data: { providerTurnId: ProviderTurnId; attempt: number; text: string | null };
};
/** The one append of a started turn; `interrupt`: stop it natively once recorded. */
export type RecordTurnStart = {
  type: "RecordTurnStart";
  data: { command: CommandOf<"StartProviderTurn">; interrupt: boolean };
};
/** Stop the native turn (its failure comes back as TurnFailed). */
export type InterruptTurn = {
  type: "InterruptTurn";
  data: { reason: TurnStalled["data"]["reason"] };
};
/**
 * B2: the failed turn earns a new attempt, recorded (one append) before the failed turn's end
 * so the run does not end with it; `words` is the failed turn's error as the person reads it.
 */
export type ScheduleRetry = {
  type: "ScheduleRetry";
  data: {
    command: CommandOf<"RestartAttempt">;
    kind: AttemptKind;
    failure: ProviderFailure;
    delayMs: number;
    words: string;
  };
};
/** No new attempt: the failed turn's end (and so the run's) carries these words. */
export type DescribeFailure = {
  type: "DescribeFailure";
  /** `usageLimit`: the run ends at its provider's usage limit (issue 32), recorded with its end. */
  data: { words: string; usageLimit?: UsageLimitHit };
};
/** Pause this long before the new attempt. */
export type WaitForRetry = { type: "WaitForRetry"; data: { delayMs: number } };
/** Put the run back on a live runtime (a new one resuming the provider thread if it died). */
export type Reattach = { type: "Reattach"; data: { kind: AttemptKind } };
/** Terminal: the run fails (one append). */
export type FailRun = { type: "FailRun"; data: { command: CommandOf<"FailRun"> } };
/** Terminal: the run's turns are over; its end is recorded by its last turn. */
export type EndRun = { type: "EndRun"; data: Record<string, never> };
/** Terminal: the lease was lost; the run is left to the instance that took it over. */
export type Abandon = { type: "Abandon"; data: Record<string, never> };
/** Terminal: a fact that cannot happen in this state; the runner rethrows it. */
export type AbortLife = { type: "AbortLife"; data: { error: Error } };

export type RunLifeOutput =
  | StartTurn
  | RecordTurnStart
  | InterruptTurn
  | ScheduleRetry
  | DescribeFailure
  | WaitForRetry
  | Reattach
  | FailRun
  | EndRun
  | Abandon
  | AbortLife;

// ---------------------------------------------------------------- state

export type RunLifeState = {
  run: RunBegan["data"] | null;
  /** New attempts after provider failures so far (B2). */
  retries: number;
  /** The new attempt to start, and the failure it follows. */
  pending: { failure: ProviderFailure; delayMs: number; kind: AttemptKind } | null;
  /** The turn in flight: its id, and the attempt its failure is told as. */
  turn: { providerTurnId: ProviderTurnId; attempt: number } | null;
  done: boolean;
};

/** Ids and the attempt policy enter the workflow only through here. */
export type RunLifeMeta = { ids: IdSource; policy: AttemptPolicy };
