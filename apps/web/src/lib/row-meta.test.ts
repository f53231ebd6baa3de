import { describe, expect, it } from "vitest";
import { rowProvider, rowWorkspace } from "./row-meta.ts";

const base = {
  defaultProvider: "codex" as const,
  branch: null,
  worktreePath: null,
};

describe("a sidebar row's provider mark and workspace", () => {
  it("names the latest run's provider, or the default one marked as not run yet", () => {
    expect(rowProvider({ ...base, lastRunProvider: "claude" })).toEqual({
      label: "Claude",
      title: "Latest run on Claude",
    });
    expect(rowProvider(base)).toEqual({ label: "Codex", title: "Codex, no run yet" });
  });

  it("shows the branch, else the worktree's folder, else nothing", () => {
    expect(rowWorkspace({ ...base, branch: "skein/thr_1", worktreePath: "/w/.skein/thr_1" })).toBe(
      "skein/thr_1",
    );
    expect(rowWorkspace({ ...base, worktreePath: "/w/.skein/worktrees/thr_2/" })).toBe("thr_2");
    expect(rowWorkspace(base)).toBeNull();
  });
});
