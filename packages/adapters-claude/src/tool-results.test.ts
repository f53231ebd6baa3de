import { describe, expect, it } from "vitest";
import { bashExitCode, completionFields, startFields } from "./tool-kinds.ts";

describe("B16: tool cards true to what ran (Claude)", () => {
  it("B16: a Read is a read of its file, a Grep a search for its pattern", () => {
    expect(startFields("Read", { file_path: "/w/a.ts" }, "/w")).toEqual({
      query: "/w/a.ts",
      toolName: "Read",
    });
    expect(startFields("Grep", { pattern: "TODO", path: "/w" }, "/w")).toEqual({
      query: "TODO",
      toolName: "Grep",
    });
  });

  it("B16: a Bash call says how it exited: 0 when no error, Claude Code's code when one", () => {
    expect(bashExitCode(false, {}, "ok")).toBe(0);
    expect(bashExitCode(true, {}, "Exit code 3\nboom")).toBe(3);
    expect(bashExitCode(true, {}, "denied")).toBeNull();
    expect(bashExitCode(false, { interrupted: true }, "")).toBeNull();
    const start = startFields("Bash", { command: "exit 3" }, "/w");
    expect(completionFields("Bash", start, null, "Exit code 3", true)).toMatchObject({
      command: "exit 3",
      exitCode: 3,
      output: "Exit code 3",
    });
  });
});
