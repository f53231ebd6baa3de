import { describe, expect, it } from "vitest";
import type { ThreadId } from "../ids.ts";
import { FanOutTargets, overlapWarnings } from "./fan-out.ts";

const a = "thr_a" as ThreadId;
const b = "thr_b" as ThreadId;
const c = "thr_c" as ThreadId;

describe("fan-out rules", () => {
  it("accepts 1 to 8 targets on known providers only", () => {
    expect(FanOutTargets.safeParse([{ provider: "codex" }]).success).toBe(true);
    expect(FanOutTargets.safeParse([]).success).toBe(false);
    const nine = Array.from({ length: 9 }, () => ({ provider: "claude" }));
    expect(FanOutTargets.safeParse(nine).success).toBe(false);
    expect(FanOutTargets.safeParse(nine.slice(0, 8)).success).toBe(true);
    expect(FanOutTargets.safeParse([{ provider: "No such agent" }]).success).toBe(false);
  });

  it("warns for each path two or more forks changed, naming those forks", () => {
    const warnings = overlapWarnings([
      { threadId: a, files: ["shared.txt", "a.txt"] },
      { threadId: b, files: ["b.txt"] },
      { threadId: c, files: ["shared.txt", "a.txt", "a.txt"] },
    ]);
    expect(warnings).toEqual([
      { path: "a.txt", threadIds: [a, c] },
      { path: "shared.txt", threadIds: [a, c] },
    ]);
    expect(
      overlapWarnings([
        { threadId: a, files: ["x"] },
        { threadId: b, files: ["y"] },
      ]),
    ).toEqual([]);
  });
});
