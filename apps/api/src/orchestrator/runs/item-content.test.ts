import { describe, expect, it } from "vitest";
import { contentOf } from "./item-content.ts";

describe("B16: a file change's card tells its files apart", () => {
  it("B16: a change of several files heads each file's lines with its path; one file's diff is kept as it is", () => {
    expect(
      contentOf("file_change", {
        changes: [
          { path: "/w/new.txt", kind: "add", diff: "+one\n+two", additions: 2, deletions: 0 },
          { path: "/w/gone.txt", kind: "delete" },
          { path: "/w/old.txt", kind: "update", diff: "@@ -1 +1 @@\n-a\n+b\n", additions: 1 },
        ],
      }),
    ).toEqual({
      type: "file_change",
      fileName: "/w/new.txt, /w/gone.txt, /w/old.txt",
      diffStr: "@@ /w/new.txt @@\n+one\n+two\n@@ /w/old.txt @@\n@@ -1 +1 @@\n-a\n+b",
      additions: 3,
      deletions: 0,
    });
    expect(
      contentOf("file_change", {
        changes: [{ path: "/w/a.txt", kind: "update", diff: "@@ -1 +1 @@\n-a\n+b\n" }],
      }),
    ).toEqual({ type: "file_change", fileName: "/w/a.txt", diffStr: "@@ -1 +1 @@\n-a\n+b\n" });
  });
});
