import type { UsageLimitHit } from "../entities/usage-limit.ts";
import type { ProviderFailure } from "../provider/provider-failure.ts";
import { decideFailure, failureInWords } from "./failure-policy.ts";
import { evolve } from "./evolve.ts";
import type {
  RunLifeInput,
  RunLifeMeta,
  RunLifeOutput,
  RunLifeState,
  TurnEnded,
  TurnFailed,
} from "./types.ts";

/**
 * A run after its start (B1, B2, R1, R2) as a workflow: given what happened so far (`state`,
 * built by `evolve` from earlier inputs and outputs) and the newest fact, the next thing to do.
 * Its turns, a new attempt after a failure the policy can get past (same runtime, or a new one
 * resuming the provider thread), a restart for app-level steering, and its end. Each decision
 * that records something carries exactly one command; ids come from `meta`, never the runtime.
 */
export function decide(input: RunLifeInput, state: RunLifeState, meta: RunLifeMeta): RunLifeOutput {
  const s = evolve(state, input);
  if (!s.run) return abort("a run's life begins with RunBegan");
  // The lease can be found lost at any point, also while the run's end is being recorded.
  if (input.type === "LeaseLost") return { type: "Abandon", data: {} };
  if (state.done) return abort(`${input.type} after the run's life ended`);
  switch (input.type) {
    case "RunBegan":
      return startTurn(s, meta, null);
    case "TurnStarted": {
      const turn = s.turn;
      if (!turn) return abort("a turn started that was never asked for");
      const { threadId, runId } = s.run;
      return {
        type: "RecordTurnStart",
        data: {
          command: {
            type: "StartProviderTurn",
            data: {
              threadId,
              runId,
              providerTurnId: turn.providerTurnId,
              nativeTurnRef: input.data.nativeTurnRef,
            },
          },
          interrupt: input.data.interruptRequested,
        },
      };
    }
    case "TurnRefused":
      // The run started but its provider refused the turn: one failure, in words.
      return failRun(s, failureInWords(s.run.provider, input.data.failure), input.data.failure);
    case "TurnStalled":
      return { type: "InterruptTurn", data: { reason: input.data.reason } };
    case "TurnFailed":
      return turnFailed(s, input.data, meta);
    case "TurnEnded":
      return turnEnded(s, input.data, meta);
    case "RetryDue":
      if (!s.pending) return abort("a retry fell due that was never scheduled");
      if (input.data.halted) return { type: "EndRun", data: {} };
      return { type: "Reattach", data: { kind: s.pending.kind } };
    case "Reattached":
      // B2: the same input again, on a runtime that is alive.
      return startTurn(s, meta, null);
    case "ReattachFailed": {
      const failure = s.pending?.failure;
      if (!failure) return abort("a reattach failed that was never asked for");
      const message = `${failure.message}; a new runtime could not take the run over (${input.data.reason})`;
      return failRun(s, failureInWords(s.run.provider, { ...failure, message }));
    }
  }
}

/**
 * B2: a turn failed mid-run. A cause a new attempt can get past, with attempts left, earns one;
 * a run the person stopped or steered, a server that stops, or a model the runtime already
 * retried to no end (B15) does not. The words name the attempt that failed.
 */
function turnFailed(s: RunLifeState, fact: TurnFailed["data"], meta: RunLifeMeta): RunLifeOutput {
  const run = s.run!;
  const attempt = s.turn?.attempt ?? s.retries + 1;
  const words = failureInWords(run.provider, fact.failure, attempt);
  const held = fact.halted || fact.interruptRequested || fact.steered || fact.modelUnreachable;
  if (held) return { type: "DescribeFailure", data: { words } };
  const decision = decideFailure(fact.failure, {
    runtimeAlive: fact.runtimeAlive,
    retries: s.retries,
    policy: meta.policy,
  });
  if (!decision.attempt) {
    // Issue 32: a limit Skein's own retries did not get past is the thread's usage limit.
    const usageLimit = usageLimitOf(fact.failure);
    return { type: "DescribeFailure", data: { words, ...(usageLimit ? { usageLimit } : {}) } };
  }
  return {
    type: "ScheduleRetry",
    data: {
      command: {
        type: "RestartAttempt",
        data: {
          threadId: run.threadId,
          runId: run.runId,
          attemptId: meta.ids.next("attempt"),
          rootNodeId: meta.ids.next("node"),
          reason: decision.attempt,
        },
      },
      kind: decision.attempt,
      failure: fact.failure,
      delayMs: decision.delayMs,
      words,
    },
  };
}

/** After a turn's end: the new attempt's pause, a steering restart, or the run's end. */
function turnEnded(s: RunLifeState, fact: TurnEnded["data"], meta: RunLifeMeta): RunLifeOutput {
  if (fact.halted) return { type: "EndRun", data: {} };
  if (s.pending) return { type: "WaitForRetry", data: { delayMs: s.pending.delayMs } };
  if (fact.restartWith !== null) return startTurn(s, meta, fact.restartWith);
  return { type: "EndRun", data: {} };
}

function startTurn(s: RunLifeState, meta: RunLifeMeta, text: string | null): RunLifeOutput {
  return {
    type: "StartTurn",
    data: { providerTurnId: meta.ids.next("providerTurn"), attempt: s.retries + 1, text },
  };
}

function failRun(s: RunLifeState, error: string, failure?: ProviderFailure): RunLifeOutput {
  const { threadId, runId } = s.run!;
  const usageLimit = failure ? usageLimitOf(failure) : null;
  return {
    type: "FailRun",
    data: {
      command: {
        type: "FailRun",
        data: { threadId, runId, error, ...(usageLimit ? { usageLimit } : {}) },
      },
    },
  };
}

/** A rate-limit failure as the usage limit it is, with the wait the provider named (if any). */
export function usageLimitOf(failure: ProviderFailure): UsageLimitHit | null {
  if (failure.kind !== "rate_limited") return null;
  return failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs };
}

const abort = (why: string): RunLifeOutput => ({
  type: "AbortLife",
  data: { error: new Error(`run life: ${why}`) },
});
