import { describe, expect, it } from "vitest";
import type { ThreadDetail } from "./types.ts";
import { moved, waitingMessages } from "./waiting-messages.ts";

const run = (id: string, ordinal: number, status: string, extra: object = {}) => ({
  id,
  ordinal,
  status,
  ...extra,
});
const said = (runId: string, text: string) => ({ type: "user_message", runId, text });

describe("waitingMessages (B20)", () => {
  it("lists never-started queued runs by ordinal with their text; retried and compaction runs stay out", () => {
    const detail = {
      runs: [
        run("r1", 1, "running"),
        run("r4", 4, "queued"),
        run("r2", 2, "queued"),
        run("r3", 3, "cancelled"),
        run("r5", 5, "queued", { compact: true }),
        run("r0", 6, "queued"),
      ],
      attempts: [{ runId: "r1" }, { runId: "r0" }],
      turnItems: [said("r1", "one"), said("r2", "two"), said("r4", "four")],
    } as unknown as ThreadDetail;
    expect(waitingMessages(detail)).toEqual([
      { runId: "r2", ordinal: 2, text: "two" },
      { runId: "r4", ordinal: 4, text: "four" },
    ]);
  });

  it("moves one message up or down; past either end nothing moves", () => {
    const list = ["a", "b", "c"].map((runId, i) => ({ runId, ordinal: i + 1, text: runId }));
    expect(moved(list, 2, -1)).toEqual(["a", "c", "b"]);
    expect(moved(list, 0, 1)).toEqual(["b", "a", "c"]);
    expect(moved(list, 0, -1)).toEqual(["a", "b", "c"]);
  });
});
