import { describe, expect, it } from "vitest";
import { MAX_REQUEST_DIFF_CHARS, requestDetail } from "./request-detail.ts";

const opened = (fields: Record<string, unknown>) =>
  ({ type: "request.opened", requestRef: "r1", kind: "command", summary: "", ...fields }) as never;

describe("B16: an approval's detail says what it approves", () => {
  it("B16: the command once: not repeated when the title already says it", () => {
    expect(requestDetail(opened({ summary: "Run ls -la", command: "ls -la", cwd: "/w" }))).toBe(
      "in /w",
    );
    expect(
      requestDetail(opened({ summary: "Needs the network", command: "curl x", cwd: "/w" })),
    ).toBe("curl x\nin /w");
  });

  it("B16: a file change shows the diff it plans, file by file", () => {
    const detail = requestDetail(
      opened({
        kind: "file-change",
        summary: "Write",
        toolName: "Write",
        changes: [
          { path: "/w/a.txt", kind: "add", diff: "+hello" },
          { path: "/w/b.txt", kind: "update" },
        ],
      }),
    );
    expect(detail).toBe("@@ /w/a.txt @@\n+hello");
  });

  it("B16: diffs past the cap are named with their counts and 'diff too large', not copied", () => {
    const big = `+${"x".repeat(MAX_REQUEST_DIFF_CHARS)}`;
    const detail = requestDetail(
      opened({
        kind: "file-change",
        summary: "Apply file changes",
        changes: [
          { path: "/w/small.txt", kind: "add", diff: "+one" },
          { path: "/w/huge.txt", kind: "add", diff: big, additions: 1, deletions: 0 },
          { path: "/w/after.txt", kind: "update", diff: "-a\n+b" },
        ],
      }),
    );
    expect(detail).toBe(
      "@@ /w/small.txt @@\n+one\n@@ /w/huge.txt @@\ndiff too large to show here (+1 −0)\n@@ /w/after.txt @@\n-a\n+b",
    );
    expect(detail!.length).toBeLessThan(MAX_REQUEST_DIFF_CHARS);

    // The cap holds for all files together: the second of two large diffs no longer fits.
    const part = `+${"y".repeat(Math.ceil(MAX_REQUEST_DIFF_CHARS * 0.6))}`;
    const two = requestDetail(
      opened({
        kind: "file-change",
        summary: "Apply file changes",
        changes: [
          { path: "/w/one.txt", kind: "update", diff: part },
          { path: "/w/two.txt", kind: "update", diff: part },
        ],
      }),
    );
    expect(two).toBe(`@@ /w/one.txt @@\n${part}\n@@ /w/two.txt @@\ndiff too large to show here`);
  });

  it("nothing beyond the title gives no detail", () => {
    expect(requestDetail(opened({ summary: "Write", toolName: "Write" }))).toBeNull();
    expect(requestDetail(opened({ summary: "Use a tool", toolName: "mcp__x" }))).toBe("mcp__x");
  });
});
