import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, test } from "vitest";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import { CodexTurn } from "./codex-turn.ts";

const n = (value: object) => ({ ...value, rawEventId: null }) as NotificationEnvelope;
const turn = (id: string, status: "inProgress" | "completed") => ({
  id,
  items: [],
  status,
  error: null,
});
const usage = (turnId: string, inputTokens: number) =>
  n({
    method: "thread/tokenUsage/updated",
    params: {
      threadId: "th",
      turnId,
      tokenUsage: {
        total: { inputTokens, outputTokens: 1, cachedInputTokens: 0, reasoningOutputTokens: 0 },
        last: { inputTokens, outputTokens: 1, cachedInputTokens: 0, reasoningOutputTokens: 0 },
        modelContextWindow: null,
      },
    },
  });

async function drain(codexTurn: CodexTurn): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of codexTurn.handle.events) events.push(event);
  return events;
}

const started = (id: string) =>
  n({ method: "turn/started", params: { threadId: "th", turn: turn(id, "inProgress") } });
const completed = (id: string) =>
  n({ method: "turn/completed", params: { threadId: "th", turn: turn(id, "completed") } });

/** Feeds `steps` (notifications, or the `turn/start` answer) and returns the turn's events. */
async function run(steps: Array<NotificationEnvelope | "answered">): Promise<RuntimeEvent[]> {
  const codexTurn = new CodexTurn("th", undefined, 0, () => {});
  for (const step of steps) {
    if (step === "answered") codexTurn.markStarted("new");
    else codexTurn.notify(step);
  }
  expect(await codexTurn.handle.started).toEqual({ nativeTurnRef: "new" });
  return drain(codexTurn);
}

// After `thread/resume`, Codex re-announces the last turn's usage, racing the new `turn/start`.
describe("CodexTurn before its turn id is known", () => {
  test("drops an earlier turn's notification (answer before turn/started)", async () => {
    const events = await run([
      usage("old", 111),
      "answered",
      started("new"),
      usage("new", 7),
      completed("new"),
    ]);
    expect(events.map((e) => e.type)).toEqual(["turn.started", "usage", "turn.completed"]);
    expect(events[1]).toMatchObject({ inputTokens: 7 });
  });

  test("drops an earlier turn's notification (turn/started before the answer)", async () => {
    const events = await run([usage("old", 111), started("new"), "answered", completed("new")]);
    expect(events.map((e) => e.type)).toEqual(["turn.started", "turn.completed"]);
  });

  test("replays its own early notification after turn.started", async () => {
    const events = await run([
      usage("old", 111),
      usage("new", 7),
      started("new"),
      "answered",
      completed("new"),
    ]);
    expect(events.map((e) => e.type)).toEqual(["turn.started", "usage", "turn.completed"]);
    expect(events[1]).toMatchObject({ inputTokens: 7 });
  });
});
