import { describe, expect, it } from "vitest";
import { plannedDiff } from "./planned-diff.ts";
import { plannedChanges } from "./tool-kinds.ts";

describe("B16: a file tool's planned change, shown before it runs", () => {
  it("B16: a Write shows its whole content as added lines", () => {
    expect(plannedDiff("Write", { file_path: "/w/a.txt", content: "one\ntwo\n" })).toEqual({
      diff: "+one\n+two",
      additions: 2,
      deletions: 0,
    });
  });

  it("B16: an Edit shows the text it replaces and the text it puts there", () => {
    expect(
      plannedDiff("Edit", { file_path: "/w/a.txt", old_string: "old", new_string: "new\nmore" }),
    ).toEqual({ diff: "-old\n+new\n+more", additions: 2, deletions: 1 });
  });

  it("B16: a MultiEdit shows each edit under its own header", () => {
    const planned = plannedDiff("MultiEdit", {
      file_path: "/w/a.txt",
      edits: [
        { old_string: "a", new_string: "b" },
        { old_string: "c", new_string: "" },
      ],
    });
    expect(planned).toEqual({
      diff: "@@ edit 1 of 2 @@\n-a\n+b\n@@ edit 2 of 2 @@\n-c",
      additions: 1,
      deletions: 2,
    });
  });

  it("an input without the fields gives no diff, and the change still names its file", () => {
    expect(plannedDiff("Edit", { file_path: "/w/a.txt" })).toBeNull();
    expect(plannedChanges("Edit", { file_path: "/w/a.txt" })).toEqual([
      { path: "/w/a.txt", kind: "update" },
    ]);
    expect(plannedChanges("Write", { file_path: "/w/b.txt", content: "x" })).toEqual([
      { path: "/w/b.txt", kind: "add", diff: "+x", additions: 1, deletions: 0 },
    ]);
  });
});
