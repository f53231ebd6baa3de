import { describe, expect, test } from "vitest";
import { codexFileChange, legacyPatchChanges } from "./file-change-diff.ts";

describe("B16: a Codex file change as Skein shows it", () => {
  test("an added file's plain content becomes added lines, a deleted file's removed lines", () => {
    expect(codexFileChange("/w/a.txt", "add", "one\ntwo\n")).toEqual({
      path: "/w/a.txt",
      kind: "add",
      diff: "+one\n+two",
      additions: 2,
      deletions: 0,
    });
    expect(codexFileChange("/w/b.txt", "delete", "gone\n")).toEqual({
      path: "/w/b.txt",
      kind: "delete",
      diff: "-gone",
      additions: 0,
      deletions: 1,
    });
  });

  test("an update's unified diff is kept as Codex sent it, counted; an empty new file has no diff", () => {
    expect(
      codexFileChange("/w/c.txt", "update", "--- a\n+++ b\n@@ -1 +1,2 @@\n-a\n+b\n+c\n"),
    ).toEqual({
      path: "/w/c.txt",
      kind: "update",
      diff: "--- a\n+++ b\n@@ -1 +1,2 @@\n-a\n+b\n+c\n",
      additions: 2,
      deletions: 1,
    });
    expect(codexFileChange("/w/e.txt", "add", "")).toEqual({
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
      {
        path: "/w/old.txt",
        kind: "update",
        diff: "@@ -1 +1 @@\n-p\n+q\n",
        additions: 1,
        deletions: 1,
      },
    ]);
  });
});
