import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorkspacePath, workspacePathProblem } from "./workspace-path.ts";

describe("B4: the written form of a workspace path", () => {
  it.each([["/home/me/code/app"], ["/tmp/x y"], ["/srv/ünï/日本"], ["/a/.hidden/..b"]])(
    "accepts %s",
    (path) => {
      expect(workspacePathProblem(path)).toBeNull();
      expect(WorkspacePath.parse(path)).toBe(path);
    },
  );

  it.each([
    ["empty", "", "absolute path"],
    ["relative", "code/app", "not absolute"],
    ["home-relative", "~/code", "not absolute"],
    ["the root", "/", "whole filesystem"],
    ["the root in disguise", "/tmp/..", "whole filesystem"],
    ["a .. segment", "/home/me/../other", 'Write it as "/home/other"'],
    ["a . segment", "/home/./me", 'Write it as "/home/me"'],
    ["a double slash", "/home//me", 'Write it as "/home/me"'],
    ["a trailing slash", "/home/me/", 'Write it as "/home/me"'],
    ["a NUL", "/home/me\0/x", "NUL"],
    ["a line break", "/home/me\n", "control character"],
    ["surrounding spaces", " /home/me", "spaces"],
    ["a lone surrogate", "/home/\ud800", "lone UTF-16 surrogate"],
    ["an endless path", `/${"a".repeat(5000)}`, "longer than"],
  ])("refuses %s with the reason in words", (_name, path, reason) => {
    const problem = workspacePathProblem(path);
    expect(problem).toContain(reason);
    const parsed = WorkspacePath.safeParse(path);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(problem);
  });

  it("accepts exactly the absolute paths Node's normalize leaves unchanged, except /", () => {
    const segment = fc.constantFrom("a", "src", "..", ".", "", "x y", ".git", "é");
    const written = fc
      .tuple(fc.constantFrom("/", "", "./"), fc.array(segment, { maxLength: 6 }))
      .map(([start, parts]) => `${start}${parts.join("/")}`);
    fc.assert(
      fc.property(written, (p) => {
        const expected =
          p.startsWith("/") && posix.normalize(p) === p && p !== "/" && !p.endsWith("/");
        expect(workspacePathProblem(p) === null).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
