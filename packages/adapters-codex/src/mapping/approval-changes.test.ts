import { describe, expect, test } from "vitest";
import { approvalChange, legacyPatchChanges } from "./approval-changes.ts";

describe("B16: a Codex file change as its approval shows it", () => {
  test("an added file's plain content becomes added lines, a deleted file's removed lines", () => {
    expect(approvalChange({ path: "/w/a.txt", kind: "add", diff: "one\ntwo\n" })).toEqual({
      path: "/w/a.txt",
      kind: "add",
      diff: "+one\n+two",
      additions: 2,
      deletions: 0,
    });
    expect(approvalChange({ path: "/w/b.txt", kind: "delete", diff: "gone\n" })).toEqual({
      path: "/w/b.txt",
      kind: "delete",
      diff: "-gone",
      additions: 0,
      deletions: 1,
    });
  });

  test("an update's unified diff is kept as Codex sent it; an empty new file has no diff", () => {
    const update = {
      path: "/w/c.txt",
      kind: "update" as const,
      diff: "@@ -1 +1 @@\n-a\n+b\n",
      additions: 1,
      deletions: 1,
    };
    expect(approvalChange(update)).toBe(update);
    expect(approvalChange({ path: "/w/e.txt", kind: "add", diff: "" })).toEqual({
      path: "/w/e.txt",
      kind: "add",
      additions: 0,
      deletions: 0,
    });
  });

  test("the legacy applyPatchApproval list maps to the same shape, file by file", () => {
    expect(
      legacyPatchChanges({
        "/w/new.txt": { type: "add", content: "x\n" },
        "/w/old.txt": { type: "update", unified_diff: "@@ -1 +1 @@\n-p\n+q\n", move_path: null },
      }),
    ).toEqual([
      { path: "/w/new.txt", kind: "add", diff: "+x", additions: 1, deletions: 0 },
      { path: "/w/old.txt", kind: "update", diff: "@@ -1 +1 @@\n-p\n+q\n" },
    ]);
  });
});
