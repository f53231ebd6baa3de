import type { ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createGitWorkspace } from "../../../test/support/git-workspace.ts";
import {
  createHarness,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const threadOf = async (threadId: ThreadId) => (await h!.thread(threadId)).thread!;
/** A thread's PORT; null when it has none (the field is absent on threads never given one). */
const portOf = async (threadId: ThreadId) => (await threadOf(threadId)).port ?? null;

/** The PORT each runtime the Codex stand-in opened was given, in the order they were opened. */
const openedPorts = () =>
  h!.codex.calls
    .filter((call) => call.op === "openSession")
    .map((call) => (call.args as { env?: { PORT?: string } }).env?.PORT);

describe("issue 26: a PORT for every running thread, with or without its own worktree", () => {
  it("two threads in the project's folder running at once, and a fork sharing its source's folder, each get a PORT of their own; a worktree thread keeps the one it was made with", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      projectSettings: { portRange: { from: 4720, to: 4729 } },
    });
    const local = await Promise.all(
      [1, 2].map(() =>
        h!.orchestrator.createThread({ projectId: h!.projectId, workspace: "local" }),
      ),
    );
    // No port until a run needs one: a thread that never runs holds none.
    for (const { threadId } of local) expect(await portOf(threadId)).toBeNull();

    const runs = await Promise.all(local.map(({ threadId }) => runMessage(h!, threadId, "hi")));
    for (const { run } of runs) expect(run.status).toBe("completed");
    const ports = await Promise.all(local.map(async ({ threadId }) => portOf(threadId)));
    expect(new Set(ports).size).toBe(2);
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(4720);
    expect([...openedPorts()].sort()).toEqual(ports.map(String).sort());

    const [a] = local;
    const fork = await h.orchestrator.forkThread({
      threadId: a!.threadId,
      isolatedWorkspace: false,
    });
    expect((await threadOf(fork.threadId)).worktreePath).toBeNull();
    expect((await runMessage(h, fork.threadId, "go on")).run.status).toBe("completed");
    const forkPort = await portOf(fork.threadId);
    expect(forkPort).not.toBeNull();
    expect(ports).not.toContain(forkPort);

    const withWorktree = await h.orchestrator.createThread({ projectId: h.projectId });
    const madeWith = await portOf(withWorktree.threadId);
    expect(madeWith).not.toBeNull();
    expect([...ports, forkPort]).not.toContain(madeWith);
    await runMessage(h, withWorktree.threadId, "hi");
    expect((await threadOf(withWorktree.threadId)).port).toBe(madeWith);
    expect(openedPorts().at(-1)).toBe(String(madeWith));

    // A second run reuses the thread's port (and its runtime): nothing new is picked.
    const opened = openedPorts().length;
    await runMessage(h, a!.threadId, "again");
    expect(await portOf(a!.threadId)).toBe(ports[0]);
    expect(openedPorts()).toHaveLength(opened);
  });

  it("every port held: a thread without one runs without a PORT (as before ports), holding none; once a thread is archived, its next run gets that port", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      projectSettings: { portRange: { from: 4740, to: 4740 }, threadWorkspace: "local" },
    });
    const first = await h.orchestrator.createThread({ projectId: h.projectId });
    const second = await h.orchestrator.createThread({ projectId: h.projectId });
    expect((await runMessage(h, first.threadId, "hi")).run.status).toBe("completed");
    const opened = openedPorts().length;

    const without = await runMessage(h, second.threadId, "hi");
    expect(without.run.status).toBe("completed");
    expect(await portOf(second.threadId)).toBeNull();
    expect(openedPorts().slice(opened)).toEqual([undefined]);

    await h.orchestrator.archive({ threadId: first.threadId });
    expect((await runMessage(h, second.threadId, "again")).run.status).toBe("completed");
    expect((await threadOf(second.threadId)).port).toBe(4740);
  });
});
