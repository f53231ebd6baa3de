import { describe, expect, it } from "vitest";
import type { ThreadId } from "../inputs.ts";
import type { BriefFile } from "./brief-types.ts";
import { netBriefFiles } from "./net-diff.ts";

const thread = "thr_a" as ThreadId;
const perRun = (fileName: string, changes: number, ordinal: number): BriefFile => ({
  fileName,
  changes,
  additions: changes,
  deletions: changes,
  lastRun: { threadId: thread, ordinal },
  latestDiff: "-v1\n+v2",
});

describe("netBriefFiles (issue 25 item 2)", () => {
  const net = {
    sourceCheckpointId: "ckp_2",
    baseCheckpointId: null,
    roots: ["/work/repo"],
    files: [
      {
        fileName: "src/a.ts",
        additions: 1,
        deletions: 1,
        patch:
          "diff --git a/src/a.ts b/src/a.ts\nindex 1..2 100644\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-v0\n+v3\n",
      },
      {
        fileName: "NOTES.md",
        additions: 1,
        deletions: 0,
        patch: "--- a/NOTES.md\n+++ b/NOTES.md\n@@ -1 +1,2 @@\n notes\n+edit",
      },
    ],
  };

  it("cites the runs that changed a file (absolute runtime paths matched to git's), with git's net patch", () => {
    const files = netBriefFiles(
      [perRun("/work/repo/src/a.ts", 3, 4), perRun("/work/repo/src/gone.ts", 2, 2)],
      net,
    );
    expect(files.map((f) => f.fileName)).toEqual(["NOTES.md", "src/a.ts"]);
    const a = files[1]!;
    expect(a).toMatchObject({ changes: 3, lastRun: { ordinal: 4 }, additions: 1, net: true });
    // The net patch, without git's header lines, replaces the latest run's diff.
    expect(a.latestDiff).toBe("--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-v0\n+v3");
  });

  it("lists a file no run changed with no run, and drops one the runs changed back", () => {
    const files = netBriefFiles([perRun("src/gone.ts", 2, 2)], net);
    expect(files.find((f) => f.fileName === "src/gone.ts")).toBeUndefined();
    expect(files.find((f) => f.fileName === "NOTES.md")).toMatchObject({
      changes: 0,
      lastRun: null,
    });
  });
});
