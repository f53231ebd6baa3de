import { expect } from "vitest";
import type { Command } from "../commands.ts";
import {
  type AggregateKind,
  type AggregateState,
  decide,
  evolve,
  initialStateFor,
} from "../decide.ts";
import type { DomainErrorCode, DomainError } from "../errors.ts";
import type { DomainEvent } from "../events.ts";
import { createSequentialIds } from "../ids.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";

export const T0 = "2025-01-01T00:00:00.000Z";

export function testMeta(at = T0, seed = "w"): CommandMeta {
  return {
    commandId: `cmd_${seed}` as CommandMeta["commandId"],
    at,
    ids: createSequentialIds(seed),
  };
}

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type ExpectedEvent = DeepPartial<DomainEvent> & { type: DomainEvent["type"] };

/**
 * emmett-style decider specification: `given(events).when(command).then(events)` /
 * `.thenFails(code)`. Every case also asserts that `decide` left the state untouched.
 */
export function given(
  events: readonly DomainEvent[] = [],
  options: { kind?: AggregateKind; state?: AggregateState } = {},
) {
  const state = options.state ?? initialStateFor(options.kind ?? "thread");
  for (const event of events) evolve(state, event);
  return {
    state,
    when(command: Command, context: DecideContext = {}, meta: CommandMeta = testMeta()) {
      const before = structuredClone(state);
      const result = decide(command, state, meta, context);
      expect(state).toEqual(before);
      return {
        result,
        /** Asserts success and that the events match (partially, in order, same count). */
        // biome-ignore lint/suspicious/noThenProperty: the emmett given/when/then vocabulary.
        then(expected: readonly ExpectedEvent[]): { events: DomainEvent[]; after: AggregateState } {
          if (!result.ok)
            throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
          expect(result.events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
          expect(result.events).toMatchObject(expected);
          const after = structuredClone(state);
          for (const event of result.events) evolve(after, event);
          return { events: result.events, after };
        },
        thenFails(code: DomainErrorCode, message?: RegExp): DomainError {
          if (result.ok) {
            throw new Error(
              `expected ${code}, got events ${result.events.map((e) => e.type).join(", ")}`,
            );
          }
          expect(result.error.code).toBe(code);
          if (message) expect(result.error.message).toMatch(message);
          return result.error;
        },
      };
    },
  };
}
