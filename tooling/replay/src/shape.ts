import type { RuntimeEvent } from "@skein/domain/provider";
import type { ScenarioShape, TurnShape } from "./scenarios.ts";

/** What a replayed session came to, in the terms a scenario's expectation uses. */
export function shapeOf(events: readonly RuntimeEvent[]): ScenarioShape {
  const turns: TurnShape[] = [];
  const completedKinds: string[] = [];
  let text: string | null = null;
  for (const e of events) {
    if (e.type === "turn.completed") {
      turns.push({ status: e.status, text });
      text = null;
    }
    // The user's own message is no output (Codex reports it as an item, Claude does not).
    if (e.type !== "item.completed" || e.status !== "completed" || e.kind === "user_message") {
      continue;
    }
    if (!completedKinds.includes(e.kind)) completedKinds.push(e.kind);
    if (e.kind === "assistant_message" && typeof e.fields.text === "string") {
      text = (text ?? "") + e.fields.text;
    }
  }
  return {
    turns,
    completedKinds,
    requests: events.flatMap((e) => (e.type === "request.opened" ? [e.kind] : [])),
  };
}
