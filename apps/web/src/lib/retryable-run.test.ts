import { describe, expect, it } from "vitest";
import { retryableRunId } from "./retryable-run.ts";
import type { Run } from "./types.ts";

const open = { archivedAt: null, deletedAt: null };
const run = (id: string, ordinal: number, status: Run["status"]) =>
  ({ id, ordinal, status }) as Pick<Run, "id" | "ordinal" | "status">;

describe("E4: which run offers Retry", () => {
  it("the latest run when it ended interrupted or failed", () => {
    const runs = [run("a", 1, "completed"), run("b", 2, "failed")];
    expect(retryableRunId({ thread: open, runs })).toBe("b");
    expect(retryableRunId({ thread: open, runs: [run("a", 1, "interrupted")] })).toBe("a");
  });

  it("skips cancelled and rolled-back runs after it", () => {
    const runs = [run("a", 1, "failed"), run("b", 2, "cancelled"), run("c", 3, "rolled_back")];
    expect(retryableRunId({ thread: open, runs })).toBe("a");
  });

  it("none for a completed latest run, an earlier failure, a busy or archived thread", () => {
    expect(retryableRunId({ thread: open, runs: [run("a", 1, "completed")] })).toBeNull();
    const later = [run("a", 1, "failed"), run("b", 2, "completed")];
    expect(retryableRunId({ thread: open, runs: later })).toBeNull();
    const queued = [run("a", 1, "failed"), run("b", 2, "queued")];
    expect(retryableRunId({ thread: open, runs: queued })).toBeNull();
    const archived = { archivedAt: "2026-01-01T00:00:00.000Z", deletedAt: null };
    expect(retryableRunId({ thread: archived, runs: [run("a", 1, "failed")] })).toBeNull();
    expect(retryableRunId({ thread: open, runs: [] })).toBeNull();
  });
});
