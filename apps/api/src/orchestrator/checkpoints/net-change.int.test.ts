import type { ThreadId, ThreadShell } from "@skein/domain";
import { writeFile } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { createGitWorkspace } from "../../../test/support/git-workspace.ts";
import {
  type Harness,
  runMessage,
  useHarness,
} from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();

/** The sidebar's row as the store holds it (what `thread.shells` pages). */
async function rowOf(h: Harness, threadId: ThreadId): Promise<ThreadShell> {
  const { data } = await h.store.snapshot((q) => q.get("threads", threadId));
  return data?.data as ThreadShell;
}

describe("the sidebar row's diff stats (issue 29 item 5)", () => {
  it("are the thread's net change since its start, kept on the row as each run's checkpoint is taken", async () => {
    const ws = createGitWorkspace({ "a.txt": "one\ntwo\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: { threadWorkspace: "local" } });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    expect((await rowOf(h, threadId)).diffStat).toBeUndefined();

    h.codex.enqueue([writeFile("a.txt", "one\nTWO\n"), writeFile("b.txt", "new\n")]);
    await runMessage(h, threadId, "edit");
    expect((await rowOf(h, threadId)).diffStat).toEqual({ files: 2, additions: 2, deletions: 1 });

    // Run 2 takes its edit of a.txt back and grows b.txt: per run that is +2 −1 again, but the
    // thread's net change is b.txt alone.
    h.codex.enqueue([writeFile("a.txt", "one\ntwo\n"), writeFile("b.txt", "new\nmore\n")]);
    await runMessage(h, threadId, "revert a, grow b");
    expect((await rowOf(h, threadId)).diffStat).toEqual({ files: 1, additions: 2, deletions: 0 });
  });
});
