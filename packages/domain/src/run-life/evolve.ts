import type { RunLifeInput, RunLifeOutput, RunLifeState } from "./types.ts";

export function initialRunLifeState(): RunLifeState {
  return { run: null, retries: 0, pending: null, turn: null, done: false };
}

/**
 * The run's life after a fact (an input) or a decision (an output): both are messages of the
 * same stream, as in the run start's workflow, so a decision's ids and counts are remembered.
 */
export function evolve(state: RunLifeState, message: RunLifeInput | RunLifeOutput): RunLifeState {
  switch (message.type) {
    case "RunBegan":
      return { ...initialRunLifeState(), run: message.data };
    case "StartTurn":
      return {
        ...state,
        pending: null,
        turn: { providerTurnId: message.data.providerTurnId, attempt: message.data.attempt },
      };
    case "ScheduleRetry": {
      const { failure, delayMs, kind } = message.data;
      return { ...state, retries: state.retries + 1, pending: { failure, delayMs, kind } };
    }
    case "FailRun":
    case "EndRun":
    case "Abandon":
    case "AbortLife":
      return { ...state, done: true };
    case "TurnStarted":
    case "TurnRefused":
    case "TurnStalled":
    case "TurnFailed":
    case "TurnEnded":
    case "RetryDue":
    case "Reattached":
    case "ReattachFailed":
    case "LeaseLost":
    case "RecordTurnStart":
    case "InterruptTurn":
    case "DescribeFailure":
    case "WaitForRetry":
    case "Reattach":
      return state;
  }
}
