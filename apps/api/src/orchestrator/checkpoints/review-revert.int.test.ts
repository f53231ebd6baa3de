import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeFile } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { createGitWorkspace, hashTree } from "../../../test/support/git-workspace.ts";
import { runMessage, useHarness } from "../../../test/support/orchestrator-harness.ts";

/** The person and the agent share the project's folder here (issue 26: `local` threads). */
const IN_PLACE = { threadWorkspace: "local" } as const;

const harness = useHarness();

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const text = (lines: readonly string[]) => `${lines.join("\n")}\n`;

/** Run 1 edits the top and the bottom of long.txt (two hunks) and adds new.txt. */
async function oneRun() {
  const ws = createGitWorkspace({ "long.txt": text(LINES), "README.md": "# mine\n" });
  const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
  const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
  const agent = [...LINES];
  agent[1] = "agent top";
  agent[27] = "agent bottom";
  h.codex.enqueue([writeFile("long.txt", text(agent)), writeFile("new.txt", "agent file\n")]);
  const { runId } = await runMessage(h, threadId, "edit");
  const read = (file: string) => readFileSync(path.join(ws, file), "utf8");
  const write = (file: string, content: string) => writeFileSync(path.join(ws, file), content);
  return { h, ws, threadId, runId, agent, read, write };
}

describe("review.revert per file and per hunk (B14, issue 26 item 2)", () => {
  it("B14: a file goes back to before the run; the person's files stay; a rollback to the safety checkpoint undoes it", async () => {
    const t = await oneRun();
    const { h } = t;
    t.write("README.md", "# mine, edited\n");
    const before = hashTree(t.ws);
    const result = await h.orchestrator.reviewRevert({
      threadId: t.threadId,
      runId: t.runId as never,
      path: "new.txt",
    });
    expect(result.files).toEqual([expect.objectContaining({ path: "new.txt", status: "deleted" })]);
    expect(existsSync(path.join(t.ws, "new.txt"))).toBe(false);
    expect(t.read("long.txt")).toBe(text(t.agent));
    expect(t.read("README.md")).toBe("# mine, edited\n");

    await h.orchestrator.rollback({
      threadId: t.threadId,
      checkpointId: result.safetyCheckpointId!,
    });
    expect(hashTree(t.ws)).toEqual(before);
  });

  it("B14: a file the person changed since is CONFLICT naming it and nothing changes; force reverts it, keeping their version", async () => {
    const t = await oneRun();
    const { h } = t;
    t.write("new.txt", "the person's rewrite\n");
    const before = hashTree(t.ws);
    const head = await h.store.headSequence();
    const ask = { threadId: t.threadId, runId: t.runId as never, path: "new.txt" };
    await expect(h.orchestrator.reviewRevert(ask)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("new.txt"),
    });
    expect(hashTree(t.ws)).toEqual(before);
    expect(await h.store.headSequence()).toBe(head);

    const forced = await h.orchestrator.reviewRevert({ ...ask, force: true });
    expect(existsSync(path.join(t.ws, "new.txt"))).toBe(false);
    await h.orchestrator.rollback({
      threadId: t.threadId,
      checkpointId: forced.safetyCheckpointId!,
    });
    expect(t.read("new.txt")).toBe("the person's rewrite\n");
  });

  it("B14: one hunk reverts on the file as it is now, keeping the person's edit in the same file; a hunk whose lines changed is CONFLICT", async () => {
    const t = await oneRun();
    const { h } = t;
    const person = [...t.agent];
    person[14] = "the person's middle line";
    t.write("long.txt", text(person));
    const diff = await h.orchestrator.reviewDiff({ threadId: t.threadId, runId: t.runId as never });
    const long = diff.files.find((f) => f.path === "long.txt")!;
    expect(long.patch.match(/^@@ /gm)).toHaveLength(2);

    await h.orchestrator.reviewRevert({
      threadId: t.threadId,
      runId: t.runId as never,
      path: "long.txt",
      hunk: 1,
    });
    const expected = [...person];
    expected[27] = "line 28";
    expect(t.read("long.txt")).toBe(text(expected));
    expect(t.read("new.txt")).toBe("agent file\n");

    const rewritten = [...expected];
    rewritten[1] = "the person rewrote the agent's top line";
    t.write("long.txt", text(rewritten));
    await expect(
      h.orchestrator.reviewRevert({
        threadId: t.threadId,
        runId: t.runId as never,
        path: "long.txt",
        hunk: 0,
      }),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("long.txt") });
    expect(t.read("long.txt")).toBe(text(rewritten));
  });

  it("a path outside the diff is NOT_FOUND and a hunk past the file's last is a validation error", async () => {
    const t = await oneRun();
    const { h } = t;
    const ask = { threadId: t.threadId, runId: t.runId as never };
    await expect(h.orchestrator.reviewRevert({ ...ask, path: "README.md" })).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("README.md"),
    });
    await expect(
      h.orchestrator.reviewRevert({ ...ask, path: "long.txt", hunk: 7 }),
    ).rejects.toMatchObject({ code: "validation", message: expect.stringContaining("2 hunk") });
    expect(t.read("long.txt")).toBe(text(t.agent));
  });
});
