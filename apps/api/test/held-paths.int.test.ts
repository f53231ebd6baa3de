import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace, hashTree } from "./support/git-workspace.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

// Issue 35 (B4): a project's folder is resolved once, at creation, and held. A later swap to a
// symbolic link is refused before any effect; an import meets the same workspace rule; a folder
// that contains Skein's data dir is refused.

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

const edit = (file: string, content: string) => [
  { type: "file_change" as const, path: file, diff: "", content },
];

async function completed(threadId: ThreadId, runId: string) {
  return eventually(async () => {
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs.find((run) => run.id === runId)?.status).toBe("completed");
    const checkpoint = detail.checkpoints.find((c) => c.runId === runId);
    expect(checkpoint?.status).toBe("ready");
    return checkpoint!;
  }, 30_000);
}

describe("issue 35: paths resolved once and held", () => {
  it("B4: a project named through a symbolic link holds the folder's real path", async () => {
    const real = createGitWorkspace({ "f.txt": "x\n" });
    const link = path.join(mkdtempSync(path.join(tmpdir(), "skein-link-")), "proj");
    symlinkSync(real, link);
    const { projectId } = await t.client.project.create.mutate({ name: "p", workspaceRoot: link });
    const project = (await t.client.project.list.query()).projects.find((p) => p.id === projectId);
    expect(project?.workspaceRoot).toBe(realpathSync(real));
  });

  it("B4: a folder that contains Skein's data dir is refused in words, and nothing is created", async () => {
    const around = path.dirname(t.dataDir);
    const refused = await refusal(
      t.client.project.create.mutate({ name: "home", workspaceRoot: around }),
    );
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    expect(refused.message).toMatch(/contains Skein's own data folder/);
    expect((await t.client.project.list.query()).projects).toEqual([]);
  });

  it("B4: a folder swapped for a symbolic link is refused before rollback and run; the other folder is untouched", async () => {
    const ws = createGitWorkspace({ "f.txt": "zero\n" });
    const { projectId } = await t.client.project.create.mutate({ name: "p", workspaceRoot: ws });
    // The thread works in the project's folder itself, the one swapped below.
    const { threadId } = await t.client.thread.create.mutate({
      projectId,
      provider: "codex",
      workspace: "local",
    });
    t.codex.enqueue(edit("f.txt", "one\n"), edit("f.txt", "two\n"));
    const first = await t.client.thread.sendMessage.mutate({ threadId, text: "1" });
    const checkpoint = await completed(threadId, first.runId);
    const second = await t.client.thread.sendMessage.mutate({ threadId, text: "2" });
    await completed(threadId, second.runId);

    const other = createGitWorkspace({ "keep.txt": "someone else's work\n" });
    const before = hashTree(other);
    renameSync(ws, `${ws}.moved`);
    symlinkSync(other, ws);
    const refused = await refusal(
      t.client.thread.rollback.mutate({ threadId, checkpointId: checkpoint.id }),
    );
    expect(refused).toMatchObject({ code: "PRECONDITION_FAILED" });
    expect(refused.message).toMatch(/has been replaced by a symbolic link to .*changed nothing/);
    expect(hashTree(other)).toEqual(before);
    expect(readFileSync(path.join(`${ws}.moved`, "f.txt"), "utf8")).toBe("two\n");

    t.codex.enqueue(edit("written.txt", "should not be here\n"));
    const third = await t.client.thread.sendMessage.mutate({ threadId, text: "3" });
    const failed = await eventually(async () => {
      const detail = await t.client.thread.detail.query({ threadId });
      const run = detail.runs.find((r) => r.id === third.runId);
      expect(run?.status).toBe("failed");
      return run!;
    }, 30_000);
    expect(failed.error).toMatch(/replaced by a symbolic link/);
    expect(existsSync(path.join(other, "written.txt"))).toBe(false);
  });

  it("B4: an import whose project folder is Skein's data dir or a relative path is refused; nothing is imported", async () => {
    const ws = createGitWorkspace({ "f.txt": "x\n" });
    const { projectId } = await t.client.project.create.mutate({ name: "p", workspaceRoot: ws });
    const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "codex" });
    const document = await t.client.thread.export.query({ threadId });
    const headBefore = await t.store.headSequence();
    for (const bad of [t.dataDir, "rel/dir"]) {
      const text = JSON.stringify(document)
        .replaceAll(JSON.stringify(ws), JSON.stringify(bad))
        .replaceAll(projectId, "prj_imported0000000000000")
        .replaceAll(threadId, "thr_imported0000000000000");
      expect(text).toContain(JSON.stringify(bad));
      const refused = await refusal(t.client.thread.import.mutate({ document: JSON.parse(text) }));
      expect(refused).toMatchObject({ code: "BAD_REQUEST" });
      expect(refused.message).toMatch(/data folder|absolute/i);
    }
    expect(await t.store.headSequence()).toBe(headBefore);
  });
});
