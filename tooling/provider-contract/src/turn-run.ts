import type {
  ProviderSessionHandle,
  RuntimeEvent,
  RuntimeItemKind,
  ThreadSettings,
  TurnInput,
} from "@skein/domain/provider";
import { expect } from "vitest";

export type EventOf<T extends RuntimeEvent["type"]> = Extract<RuntimeEvent, { type: T }>;

export type TurnRun = {
  events: RuntimeEvent[];
  completed: EventOf<"turn.completed">;
  /** The turn's native ref as the orchestrator would record it (completion first, else start). */
  nativeTurnRef: string | null;
};

/** Called for each event as it arrives; awaited before the next one is read. */
export type OnTurnEvent = (event: RuntimeEvent) => void | Promise<void>;

/**
 * Drives one turn to its end and checks the event envelope every turn must keep, whatever else
 * a test asserts: `turn.started` first, exactly one `turn.completed`, last, and no item left open.
 */
export async function runTurn(
  session: ProviderSessionHandle,
  nativeThreadRef: string,
  input: TurnInput | string,
  settings: ThreadSettings,
  onEvent?: OnTurnEvent,
): Promise<TurnRun> {
  const turnInput = typeof input === "string" ? { text: input } : input;
  const handle = session.startTurn(nativeThreadRef, turnInput, { settings });
  const events: RuntimeEvent[] = [];
  for await (const event of handle.events) {
    events.push(event);
    await onEvent?.(event);
  }
  const started = await handle.started.catch(() => null);
  expectTurnEnvelope(events);
  const completed = events.at(-1) as EventOf<"turn.completed">;
  return {
    events,
    completed,
    nativeTurnRef: completed.nativeTurnRef ?? started?.nativeTurnRef ?? null,
  };
}

export function expectTurnEnvelope(events: RuntimeEvent[]): void {
  const types = events.map((e) => e.type);
  expect(types[0], `events: ${types.join(", ")}`).toBe("turn.started");
  expect(types.filter((t) => t === "turn.started")).toHaveLength(1);
  expect(types.filter((t) => t === "turn.completed")).toHaveLength(1);
  expect(types.at(-1)).toBe("turn.completed");
  const started = ofType(events, "item.started").map((e) => e.itemRef);
  const completed = new Set(ofType(events, "item.completed").map((e) => e.itemRef));
  expect(
    started.filter((ref) => !completed.has(ref)),
    "items started but never completed",
  ).toEqual([]);
}

export function ofType<T extends RuntimeEvent["type"]>(
  events: RuntimeEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function completedItems(
  events: RuntimeEvent[],
  kind: RuntimeItemKind,
): EventOf<"item.completed">[] {
  return ofType(events, "item.completed").filter((e) => e.kind === kind);
}

/** The assistant's reply text of a turn: its completed assistant messages, joined. */
export function assistantText(events: RuntimeEvent[]): string {
  return completedItems(events, "assistant_message")
    .map((e) => e.fields.text ?? "")
    .join("");
}

export function textDeltas(events: RuntimeEvent[], itemRef: string): string[] {
  return ofType(events, "item.delta")
    .filter((e) => e.itemRef === itemRef && e.field === "text")
    .map((e) => e.delta);
}
