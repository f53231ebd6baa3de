import { expect } from "vitest";
import { createSequentialIds } from "../ids.ts";
import type { ProviderFailure } from "../provider/provider-failure.ts";
import { DEFAULT_ATTEMPT_POLICY } from "./attempt-policy.ts";
import { decide } from "./decide.ts";
import { evolve, initialRunLifeState } from "./evolve.ts";
import type {
  RunLifeInput,
  RunLifeMeta,
  RunLifeOutput,
  RunLifeState,
  TurnFailed,
} from "./types.ts";

/** Short pauses, two new attempts: the figures the tests name. */
export const POLICY = { ...DEFAULT_ATTEMPT_POLICY, baseDelayMs: 100, maxDelayMs: 400 };

/**
 * given(facts).when(fact).then(decision), as the run start's specification reads: the given
 * facts go through decide/evolve exactly as the runner feeds them, so the state a `when` sees
 * holds the decisions taken on the way (their ids and counts) too.
 */
export function given(...facts: RunLifeInput[]) {
  const meta: RunLifeMeta = { ids: createSequentialIds("life"), policy: POLICY };
  let state: RunLifeState = initialRunLifeState();
  for (const fact of facts) state = step(state, fact, meta).state;
  return {
    state,
    when(fact: RunLifeInput) {
      const { output, state: after } = step(state, fact, meta);
      return {
        output,
        state: after,
        // biome-ignore lint/suspicious/noThenProperty: the emmett given/when/then vocabulary.
        then(expected: DeepPartial<RunLifeOutput>) {
          expect(output).toMatchObject(expected);
          return output;
        },
      };
    },
  };
}

function step(state: RunLifeState, fact: RunLifeInput, meta: RunLifeMeta) {
  const output = decide(fact, state, meta);
  return { output, state: evolve(evolve(state, fact), output) };
}

export const THREAD = "thr_life_0001" as never;
export const RUN = "run_life_0001" as never;

/** The facts, as the runner feeds them. */
export const fact = {
  began: (provider: "codex" | "claude" = "codex"): RunLifeInput => ({
    type: "RunBegan",
    data: { threadId: THREAD, runId: RUN, provider },
  }),
  started: (interruptRequested = false): RunLifeInput => ({
    type: "TurnStarted",
    data: { nativeTurnRef: "turn-native-1", interruptRequested },
  }),
  refused: (failure: ProviderFailure): RunLifeInput => ({ type: "TurnRefused", data: { failure } }),
  stalled: (reason: "idle" | "model_unreachable"): RunLifeInput => ({
    type: "TurnStalled",
    data: { reason },
  }),
  failed: (failure: ProviderFailure, also: Partial<TurnFailed["data"]> = {}): RunLifeInput => ({
    type: "TurnFailed",
    data: {
      failure,
      runtimeAlive: true,
      modelUnreachable: false,
      halted: false,
      interruptRequested: false,
      steered: false,
      ...also,
    },
  }),
  ended: (restartWith: string | null = null, halted = false): RunLifeInput => ({
    type: "TurnEnded",
    data: { halted, restartWith },
  }),
  due: (halted = false): RunLifeInput => ({ type: "RetryDue", data: { halted } }),
  reattached: (): RunLifeInput => ({ type: "Reattached", data: {} }),
  reattachFailed: (reason: string): RunLifeInput => ({ type: "ReattachFailed", data: { reason } }),
  leaseLost: (): RunLifeInput => ({ type: "LeaseLost", data: {} }),
};

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
