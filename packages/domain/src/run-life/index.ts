export { type AttemptPolicy, attemptDelayMs, DEFAULT_ATTEMPT_POLICY } from "./attempt-policy.ts";
export { decide } from "./decide.ts";
export { evolve, initialRunLifeState } from "./evolve.ts";
export {
  type AttemptKind,
  decideFailure,
  FAILURE_POLICY,
  type FailureDecision,
  failureInWords,
} from "./failure-policy.ts";
export type * from "./types.ts";
