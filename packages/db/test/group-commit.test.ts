import { describe, expect, it } from "vitest";
import { appendedOutcome } from "../src/append-outcome.ts";
import { GroupCommit } from "../src/group-commit.ts";
import { prepareAppend } from "../src/prepare-append.ts";

function batching(maxBatchBytes?: number) {
  const batches: number[] = [];
  const commits = new GroupCommit({
    commit: (batch) => {
      batches.push(batch.length);
      return batch.map((append) => appendedOutcome(append, [], 1, 0));
    },
    onCommitted: () => {},
    maxBatchSize: 1_000,
    ...(maxBatchBytes === undefined ? {} : { maxBatchBytes }),
    now: () => new Date(0),
  });
  const append = (chars: number, n: number) =>
    commits.enqueue(prepareAppend(`s${n}`, "any", [{ type: "T", data: "x".repeat(chars) }], {}));
  return { batches, append };
}

describe("group commit batches", () => {
  it("bounds a batch's serialized bytes, an oversized append going alone (large PostgreSQL histories)", async () => {
    const { batches, append } = batching(10_000);
    await Promise.all([
      ...Array.from({ length: 10 }, (_, n) => append(3_000, n)),
      append(50_000, 10),
      append(10, 11),
    ]);
    expect(batches).toEqual([3, 3, 3, 1, 1, 1]);
  });

  it("without a byte bound, takes up to maxBatchSize appends at once", async () => {
    const { batches, append } = batching();
    await Promise.all(Array.from({ length: 12 }, (_, n) => append(3_000, n)));
    expect(batches).toEqual([12]);
  });
});
