import { describe, expect, it } from "vitest";
import { relativizeDiffHeads, relativizeText, workspaceRelative } from "./workspace-path.ts";

describe("B16: paths relative to the thread's workspace", () => {
  it("B16: inside the workspace a path reads relative; outside it stays absolute", () => {
    expect(workspaceRelative("/w/src/a.ts", "/w")).toBe("./src/a.ts");
    expect(workspaceRelative("/w", "/w/")).toBe("the workspace");
    expect(workspaceRelative("/wx/a.ts", "/w")).toBe("/wx/a.ts");
    expect(workspaceRelative("/w/a.ts", null)).toBe("/w/a.ts");
  });

  it("B16: paths inside a line of text are made relative, others left as they are", () => {
    expect(relativizeText("in /w/sub", "/w")).toBe("in ./sub");
    expect(relativizeText("cat '/w/a b' /etc/hosts", "/w")).toBe("cat './a b' /etc/hosts");
    expect(relativizeText("@@ /w/a.txt @@", "/w")).toBe("@@ ./a.txt @@");
  });

  it("B16: a several-file diff's file heads read relative; its own lines are left exactly", () => {
    const diff = "@@ /w/a.txt @@\n+see /w/a.txt\n@@ /w/b.txt @@\n@@ -1 +1 @@\n-x\n+y";
    expect(relativizeDiffHeads(diff, "/w")).toBe(
      "@@ ./a.txt @@\n+see /w/a.txt\n@@ ./b.txt @@\n@@ -1 +1 @@\n-x\n+y",
    );
    expect(relativizeDiffHeads(diff, null)).toBe(diff);
  });
});
