import { describe, expect, it } from "vitest";
import { IdleTimeoutError, untilIdle } from "./idle-watchdog.ts";

/** Yields the given values with the given pauses before each, then stays silent forever. */
async function* source(steps: Array<[number, string]>, endAfter = false): AsyncGenerator<string> {
  for (const [ms, value] of steps) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    yield value;
  }
  if (!endAfter) await new Promise(() => undefined);
}

async function collect(events: AsyncIterable<string>) {
  const seen: string[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { seen, error: null };
  } catch (error) {
    return { seen, error };
  }
}

describe("the idle watchdog on a turn's events (B2)", () => {
  it("B2: events keep it quiet; silence past the timeout stops the turn and fails", async () => {
    let stopped = 0;
    const result = await collect(
      untilIdle(
        source([
          [10, "a"],
          [10, "b"],
        ]),
        80,
        async () => false,
        async () => {
          stopped += 1;
        },
      ),
    );
    expect(result.seen).toEqual(["a", "b"]);
    expect(result.error).toBeInstanceOf(IdleTimeoutError);
    expect(stopped).toBe(1);
  });

  it("B2: silence while the run waits for a person does not count", async () => {
    let checks = 0;
    let stopped = 0;
    const result = await collect(
      untilIdle(
        source([[200, "answered"]], true),
        40,
        async () => {
          checks += 1;
          return true;
        },
        async () => {
          stopped += 1;
        },
      ),
    );
    expect(result).toEqual({ seen: ["answered"], error: null });
    expect(checks).toBeGreaterThan(1);
    expect(stopped).toBe(0);
  });

  it("0 turns the watchdog off", async () => {
    const result = await collect(
      untilIdle(
        source([[50, "late"]], true),
        0,
        async () => false,
        async () => undefined,
      ),
    );
    expect(result).toEqual({ seen: ["late"], error: null });
  });
});
