import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { refusedRecording } from "../src/refused-recording.ts";
import { readFixtures } from "../src/fixture-files.ts";
import { lineageOf } from "../src/lineage.ts";
import type { Fixture } from "../src/record-session.ts";
import { replaySlice } from "../src/replay-slice.ts";
import type { ScenarioShape } from "../src/scenarios.ts";
import { shapeOf } from "../src/shape.ts";

const fixtures = readFixtures();

const done = (text: string | null) => ({ status: "completed" as const, text });
const TEXT_ONLY = { completedKinds: ["assistant_message"], requests: [] };

/**
 * What each scenario must come to on either runtime (`provider/scenario` where they differ).
 * Written here, not recorded: a refresh after a runtime upgrade rewrites the fixtures, and these
 * still say what the UI needs from them. Replies that depend on history are served by the fake
 * model only when the conversation it got holds (or lacks) the scenario's markers, so a text
 * here also says what the runtime sent the model.
 */
const EXPECTED: Record<string, ScenarioShape> = {
  "plain-reply": { turns: [done("Hello from the fake model.")], ...TEXT_ONLY },
  "tool-approval": {
    turns: [done("The marker file exists now.")],
    completedKinds: ["command_execution", "assistant_message"],
    requests: ["command"],
  },
  "model-error": { turns: [{ status: "failed", text: null }], completedKinds: [], requests: [] },
  // The third turn saw the first turn and not the second.
  fork: {
    turns: [
      done("First answer."),
      done("Second answer."),
      done("The fork holds the first turn only."),
    ],
    ...TEXT_ONLY,
  },
  rollback: {
    turns: [done("First answer."), done("Second answer."), done("The second turn is gone.")],
    ...TEXT_ONLY,
  },
  // One turn, ending on the reply to the steer. Claude finishes the answer it was giving and
  // then answers the steer; Codex drops the unfinished answer and starts over with the steer.
  "claude/steer": { turns: [done("Talking slowly now. Steered.")], ...TEXT_ONLY },
  "codex/steer": { turns: [done(" Steered.")], ...TEXT_ONLY },
  // The stopped answer never completes; the next turn runs as usual.
  interrupt: {
    turns: [{ status: "interrupted", text: null }, done("After the stop.")],
    ...TEXT_ONLY,
  },
};

const expectedFor = (f: Fixture) => EXPECTED[`${f.provider}/${f.scenario}`] ?? EXPECTED[f.scenario];
const scenarios = [...new Set(Object.keys(EXPECTED).map((k) => k.split("/").at(-1)))].sort();
const of = (name: string) => fixtures.filter((f) => f.fixture.scenario === name);

async function replayed(fixture: Fixture): Promise<RuntimeEvent[]> {
  const [session] = await replaySlice(fixture.frames, { provider: fixture.provider });
  return session?.events ?? [];
}

/** Where in the recording each turn started and ended (frame positions). */
function turnSpans(fixture: Fixture, events: RuntimeEvent[]): Array<[number, number]> {
  const at = (id: string | undefined) => fixture.frames.findIndex((f) => f.rawEventId === id);
  const starts = events.filter((e) => e.type === "turn.started").map((e) => at(e.rawEventId));
  const ends = events.filter((e) => e.type === "turn.completed").map((e) => at(e.rawEventId));
  return starts.map((start, i) => [start, ends[i] ?? -1]);
}
const position = (fixture: Fixture, rawEventId: string) =>
  fixture.frames.findIndex((f) => f.rawEventId === rawEventId);

describe("recorded sessions replay through the adapters (fixtures)", () => {
  it("B8: both runtimes are recorded for every scenario", () => {
    const names = fixtures.map((f) => `${f.fixture.provider}/${f.fixture.scenario}`).sort();
    expect(names).toEqual([
      ...scenarios.map((s) => `claude/${s}`),
      ...scenarios.map((s) => `codex/${s}`),
    ]);
  });

  it.each(fixtures)("B8: $file replays to the events recorded live", async ({ fixture }) => {
    const [session, ...others] = await replaySlice(fixture.frames, { provider: fixture.provider });
    expect(others).toEqual([]);
    expect(session?.events).toEqual(fixture.events);
  });

  it.each(fixtures)("B8: $file comes to what its scenario needs", async ({ fixture }) => {
    const expected = expectedFor(fixture);
    expect(expected, `no expectation for ${fixture.scenario}`).toBeDefined();
    expect(shapeOf(await replayed(fixture))).toEqual(expected);
  });

  it.each(of("fork"))(
    "B8: $file runs its third turn on a thread forked from the source",
    async ({ fixture }) => {
      const { turnThreads, forks, rollbacks } = lineageOf(fixture);
      const [source, second, forked] = turnThreads;
      expect(second).toBe(source);
      expect(forks).toEqual([{ from: source, to: forked }]);
      expect(forked).not.toBe(source);
      expect(rollbacks).toEqual([]);
    },
  );

  it.each(of("rollback"))("B8: $file drops the second turn in place", async ({ fixture }) => {
    const { turnThreads, forks, rollbacks } = lineageOf(fixture);
    expect(new Set(turnThreads).size).toBe(1);
    expect(rollbacks).toEqual([{ thread: turnThreads[0] }]);
    expect(forks).toEqual([]);
    // The rolled-back turn's reply was not in what the model got next (its text says so).
    expect(shapeOf(await replayed(fixture)).turns.at(-1)?.text).toBe("The second turn is gone.");
  });

  it.each(of("steer"))("B8: $file sends the steer inside the running turn", async ({ fixture }) => {
    const events = await replayed(fixture);
    const [[start, end] = [-1, -1], ...more] = turnSpans(fixture, events);
    expect(more).toEqual([]);
    const [, steer, ...rest] = lineageOf(fixture).inputs;
    expect(rest).toEqual([]);
    expect(steer?.text).toContain("STEER-ASK");
    const sent = position(fixture, steer?.rawEventId ?? "");
    expect(sent).toBeGreaterThan(start);
    expect(sent).toBeLessThan(end);
    // Something was streamed before the steer went out: it arrived mid-turn.
    const firstDelta = events.find((e) => e.type === "item.delta");
    expect(position(fixture, firstDelta?.rawEventId ?? "")).toBeLessThan(sent);
  });

  it.each(of("interrupt"))(
    "B8: $file ends the turn it interrupted, interrupted",
    async ({ fixture }) => {
      const events = await replayed(fixture);
      const [[start, end] = [-1, -1], next] = turnSpans(fixture, events);
      const [interrupt, ...more] = lineageOf(fixture).interrupts;
      expect(more).toEqual([]);
      const sent = position(fixture, interrupt?.rawEventId ?? "");
      expect(sent).toBeGreaterThan(start);
      expect(sent).toBeLessThan(end);
      expect(next?.[0]).toBeGreaterThan(end);
      const ends = events.filter((e) => e.type === "turn.completed").map((e) => e.status);
      expect(ends).toEqual(["interrupted", "completed"]);
    },
  );

  it.each(fixtures)("B8: the refresh accepts $file as recorded", async ({ fixture }) => {
    expect(await refusedRecording(fixture)).toBeNull();
  });

  it("B8: the refresh refuses a recording whose replay differs from its live events", async () => {
    const { fixture } = fixtures.find((f) => f.file === "claude-steer.json") ?? {};
    if (!fixture) throw new Error("fixture missing");
    // As if the live adapter had ended the turn at the first result, as a replay without
    // steer folding would: the recording must not become a fixture.
    const firstEnd = fixture.events.findIndex((e) => e.type === "usage");
    const live = [...fixture.events.slice(0, firstEnd + 1), fixture.events.at(-1)];
    const refused = await refusedRecording({ ...fixture, events: live as RuntimeEvent[] });
    expect(refused).toEqual(fixture.events);
    // A recording cut short replays to other events than those recorded: refused too.
    const cut = { ...fixture, frames: fixture.frames.slice(0, -5) };
    expect(await refusedRecording(cut)).not.toBeNull();
  });

  it("B8: a wire change shows up as a failing fixture", async () => {
    // As if a runtime upgrade renamed the notification that completes items.
    const { fixture } = fixtures.find((f) => f.file === "codex-tool-approval.json") ?? {};
    if (!fixture) throw new Error("fixture missing");
    const changed = fixture.frames.map((frame) =>
      frame.method === "item/completed"
        ? {
            ...frame,
            method: "item/finished",
            payload: { ...(frame.payload as object), method: "item/finished" },
          }
        : frame,
    );
    const [session] = await replaySlice(changed, { provider: "codex" });
    expect(session?.events).not.toEqual(fixture.events);
    expect(shapeOf(session?.events ?? [])).not.toEqual(EXPECTED["tool-approval"]);
  });
});
