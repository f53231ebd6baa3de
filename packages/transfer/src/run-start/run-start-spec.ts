import {
  type Command,
  createSequentialIds,
  decide as decideDomain,
  evolve as evolveDomain,
  type ThreadState,
} from "@skein/domain";
import { expect } from "vitest";
import { decide, type RunStartMeta } from "./decide.ts";
import { evolve, initialRunStartState } from "./evolve.ts";
import type { AppendStart, RunStartInput, RunStartOutput, RunStartState } from "./types.ts";

/**
 * given(facts).when(fact).then(decision), as emmett's workflow specifications read: the given
 * facts are fed through decide/evolve exactly as the runner feeds them, so the state a `when`
 * sees holds the decisions taken on the way too.
 */
export function given(...facts: RunStartInput[]) {
  const meta: RunStartMeta = { ids: createSequentialIds("wf") };
  let state: RunStartState = initialRunStartState();
  for (const fact of facts) state = step(state, fact, meta).state;
  return {
    state,
    when(fact: RunStartInput) {
      const { output, state: after } = step(state, fact, meta);
      return {
        output,
        state: after,
        // biome-ignore lint/suspicious/noThenProperty: the emmett given/when/then vocabulary.
        then(expected: DeepPartial<RunStartOutput>) {
          expect(output).toMatchObject(expected);
          return output;
        },
      };
    },
  };
}

function step(state: RunStartState, fact: RunStartInput, meta: RunStartMeta) {
  const output = decide(fact, state, meta);
  return { output, state: evolve(evolve(state, fact), output) };
}

/** Applies an AppendStart's commands to a copy-free domain state: the domain must accept them all. */
export function applies(state: ThreadState, commands: readonly Command[]): ThreadState {
  const ids = createSequentialIds("apply");
  for (const command of commands) {
    const meta = { commandId: ids.next("command"), at: "2025-01-01T00:00:00.000Z", ids };
    const result = decideDomain(command, state, meta, {});
    if (!result.ok) throw new Error(`${command.type} refused: ${result.error.message}`);
    for (const event of result.events) evolveDomain(state, event);
  }
  return state;
}

/** The types of the commands a decision appends, in order (the decision must be an AppendStart). */
export const commandTypes = (output: { data: unknown }) =>
  (output as AppendStart).data.commands.map((c) => c.type);

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
