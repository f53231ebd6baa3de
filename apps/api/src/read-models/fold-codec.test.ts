import type { FoldCheckpoint } from "@skein/db";
import { newStreamFold, STATE_SNAPSHOT_VERSION, STREAM_FOLD_VERSION } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { decodeCheckpoint, encodeCheckpoint, FOLD_FORMAT } from "./fold-codec.ts";
import type { Checkpoint } from "./fold-checkpoint.ts";

function stored(checkpoint: Checkpoint, body = encodeCheckpoint(checkpoint)): FoldCheckpoint {
  const { streamId, version, sequence } = checkpoint.fold;
  return { streamId, version, sequence, format: FOLD_FORMAT, body };
}

function projectCheckpoint(): Checkpoint {
  const fold = { ...newStreamFold("project-prj_1"), sequence: 7, version: 3 };
  fold.rows.set("projects/prj_1", {
    table: "projects",
    id: "prj_1",
    threadId: null,
    sortKey: 1,
    runOrdinal: null,
    status: null,
    data: { name: "ünïcode \u2028 line\nbreak", nested: [1, { a: null }] },
    updatedSequence: 7,
  });
  fold.rows.set("threads/thr_1", {
    table: "threads",
    id: "thr_1",
    threadId: "thr_1",
    sortKey: 2,
    runOrdinal: 4,
    status: "idle",
    data: { title: "t" },
  });
  return {
    fold,
    sessions: new Set(["ses_1"]),
    origin: { projectId: "prj_1", sourceThreadId: null },
  };
}

describe("B8 fold checkpoint codec", () => {
  it("B8: names the state snapshot and fold versions, so other code's checkpoints are not read", () => {
    expect(FOLD_FORMAT).toContain(`state.${STATE_SNAPSHOT_VERSION}`);
    expect(FOLD_FORMAT).toContain(`fold.${STREAM_FOLD_VERSION}`);
  });

  it("B8: a decoded checkpoint holds the same rows, sessions and origin", () => {
    const checkpoint = projectCheckpoint();
    const decoded = decodeCheckpoint(stored(checkpoint))!;
    expect(decoded.partial).toBeUndefined();
    expect(decoded.fold.version).toBe(3);
    expect(decoded.fold.sequence).toBe(7);
    // Rows read back compute their data on first use: compare what a reader sees.
    const seen = (rows: Checkpoint["fold"]["rows"]) =>
      [...rows.entries()].map(([key, row]) => [key, { ...row, data: row.data }]);
    expect(seen(decoded.fold.rows)).toEqual(seen(checkpoint.fold.rows));
    expect(decoded.sessions).toEqual(new Set(["ses_1"]));
    expect(decoded.origin).toEqual(checkpoint.origin);
    expect(decoded.fold.state).toEqual({ ...checkpoint.fold.state, changed: new Map() });
  });

  it("B8: a damaged body is not read (the caller folds from the log instead)", () => {
    const checkpoint = projectCheckpoint();
    const body = encodeCheckpoint(checkpoint);
    for (const damaged of [
      "",
      "{}",
      body.slice(0, -1),
      `${body}x`,
      body.replace('"state"', '"s"'),
    ]) {
      expect(decodeCheckpoint(stored(checkpoint, damaged))).toBeNull();
    }
  });
});
