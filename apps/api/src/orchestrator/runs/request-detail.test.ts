import { describe, expect, it } from "vitest";
import { requestDetail } from "./request-detail.ts";

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

  it("nothing beyond the title gives no detail", () => {
    expect(requestDetail(opened({ summary: "Write", toolName: "Write" }))).toBeNull();
    expect(requestDetail(opened({ summary: "Use a tool", toolName: "mcp__x" }))).toBe("mcp__x");
  });
});
