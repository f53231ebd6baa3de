import type { Run } from "@skein/domain";
import type { AppToolHandler, ThreadSettings, TurnInput } from "@skein/domain/provider";
import {
  decide,
  evolve,
  initialRunLifeState,
  type RunLifeInput,
  type RunLifeMeta,
  type RunLifeOutput,
} from "@skein/domain/run-life";
import type { ActiveTurn } from "../runtime/active-turns.ts";

/** A run whose start is recorded, on the runtime and provider thread it starts on. */
export type BegunRun = {
  run: Run;
  active: ActiveTurn;
  input: TurnInput;
  settings: ThreadSettings;
  onAppToolCall: AppToolHandler | undefined;
};

/** The run-life workflow's state for one run, and the one way facts get into it. */
export class RunLife {
  private state = initialRunLifeState();

  constructor(private readonly meta: RunLifeMeta) {}

  feed(fact: RunLifeInput): RunLifeOutput {
    const output = decide(fact, this.state, this.meta);
    this.state = evolve(evolve(this.state, fact), output);
    return output;
  }
}
