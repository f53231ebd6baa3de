import { describe, expect, it } from "vitest";
import { readFixtures } from "../src/fixture-files.ts";
import { replaySlice } from "../src/replay-slice.ts";
import type { ScenarioShape } from "../src/scenarios.ts";
import { shapeOf } from "../src/shape.ts";

const fixtures = readFixtures();

/**
 * What each scenario must come to on either runtime. Written here, not recorded: a refresh after
 * a runtime upgrade rewrites the fixtures, and these still say what the UI needs from them.
 */
const EXPECTED: Record<string, ScenarioShape> = {
  "plain-reply": {
    turn: "completed",
    completedKinds: ["assistant_message"],
    requests: [],
    text: "Hello from the fake model.",
  },
  "tool-approval": {
    turn: "completed",
    completedKinds: ["command_execution", "assistant_message"],
    requests: ["command"],
    text: "The marker file exists now.",
  },
  "model-error": { turn: "failed", completedKinds: [], requests: [], text: null },
};

describe("recorded sessions replay through the adapters (fixtures)", () => {
  it("B8: both runtimes are recorded for every scenario", () => {
    const names = fixtures.map((f) => `${f.fixture.provider}/${f.fixture.scenario}`).sort();
    const scenarios = Object.keys(EXPECTED).sort();
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
    const [session] = await replaySlice(fixture.frames, { provider: fixture.provider });
    const expected = EXPECTED[fixture.scenario];
    expect(expected, `no expectation for ${fixture.scenario}`).toBeDefined();
    expect(shapeOf(session?.events ?? [])).toEqual(expected);
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
