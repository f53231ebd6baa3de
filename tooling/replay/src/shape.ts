import type { RuntimeEvent } from "@skein/domain/provider";
import type { ScenarioShape } from "./scenarios.ts";

/** What a replayed session came to, in the terms a scenario's expectation uses. */
export function shapeOf(events: readonly RuntimeEvent[]): ScenarioShape {
  const end = events.findLast((e) => e.type === "turn.completed");
  const completedKinds: string[] = [];
  let text: string | null = null;
  for (const e of events) {
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
    turn: end?.status === "completed" ? "completed" : "failed",
    completedKinds,
    requests: events.flatMap((e) => (e.type === "request.opened" ? [e.kind] : [])),
    text,
  };
}
