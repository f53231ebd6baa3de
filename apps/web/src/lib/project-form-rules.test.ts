import { describe, expect, it } from "vitest";
import { projectFormProblem } from "./project-form-rules.ts";

describe("B4: the new-project form applies the API's workspace rule before submitting", () => {
  it.each([
    ["code/app", "is not absolute"],
    ["/", "whole filesystem"],
    ["/home/me/../you", 'Write it as "/home/you"'],
    ["/home/me/", 'Write it as "/home/me"'],
    ["/home/me\0x", "NUL"],
  ])("refuses %j, saying why", (root, reason) => {
    expect(projectFormProblem("Demo", root)).toContain(reason);
  });

  it("refuses a name with a broken character", () => {
    expect(projectFormProblem("De\ud800mo", "/home/me/app")).toContain("lone UTF-16 surrogate");
  });

  it("lets a well-formed absolute path through (the API checks the folder itself)", () => {
    expect(projectFormProblem("Demo 🚢", "/home/me/app")).toBeNull();
  });
});
