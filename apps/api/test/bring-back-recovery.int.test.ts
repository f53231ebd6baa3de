import { readFileSync } from "node:fs";
import path from "node:path";
import { responsesTextReply } from "@skein/fake-models";
import { ConflictError, type RunId, type ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { parentWithFork, settledWithCheckpoint } from "./support/bring-back-setup.ts";
import { type CodexSkeinHarness, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { createGitWorkspace, git, hashTree } from "./support/git-workspace.ts";

const start = useCodexSkeinHarness();
const BASE = "line1\nline2\nline3\n";
const FORK_EDIT = "printf 'A1\\nline2\\nline3\\n' > shared.txt && printf 'a\\n' > a.txt";

/** What the next bring-back meets between writing its files and appending its run. */
type Fault = "crash" | "refusal" | null;

async function setUp(fault: { next: Fault }) {
  const h = await start({
    afterBringBackFiles: () => {
      const now = fault.next;
      fault.next = null;
      // A process dying here never returns; an Error that is no refusal leaves the same trace.
      if (now === "crash") throw new Error("injected crash between files and append");
      if (now === "refusal") throw new ConflictError("injected refusal of the append");
    },
  });
  const ws = createGitWorkspace({ "shared.txt": BASE, "keep.txt": "keep\n" });
  const { parent, fork } = await parentWithFork(h, ws, FORK_EDIT);
  return { h, ws, parent, fork };
}

/** Runs of the parent that a bring-back recorded (each carries a merge-back transfer, T8). */
const bringBacks = async (h: CodexSkeinHarness, parent: ThreadId) =>
  [...(await h.thread(parent)).transfers.values()]
    .filter((t) => t.type === "merge_back")
    .map((t) => t.targetRunId);

describe("a bring-back with code is recoverable between its files and its run record (B3/B9)", () => {
  it("crash after the files: the restart finishes the same run, and replays of the command id never write the files again", async () => {
    const fault = { next: "crash" as Fault };
    const { h, ws, parent, fork } = await setUp(fault);
    const send = () =>
      h.orchestrator.sendMessage({
        threadId: parent,
        text: "bring it back",
        bringBackFrom: fork,
        code: "squash",
        commandId: "back-1",
      });
    await expect(send()).rejects.toThrow(/injected crash/);
    // The files are in, the run is not: the intent says what was decided.
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("A1\nline2\nline3\n");
    expect(await bringBacks(h, parent)).toEqual([]);
    const intents = await h.store.listIntents();
    expect(intents.map((i) => i.commandId)).toEqual(["back-1"]);
    const planned = (intents[0]!.data as { decision: { runId: RunId } }).decision.runId;

    h.server.enqueue(responsesTextReply("took it after the restart"));
    await h.restart();
    // Finished under the recorded run id; the intent is closed by the receipt.
    expect(await bringBacks(h, parent)).toEqual([planned]);
    expect(await h.store.listIntents()).toEqual([]);
    await h.orchestrator.waitForRun(planned);
    await settledWithCheckpoint(h, parent);
    expect((await h.thread(parent)).runs.get(planned)?.status).toBe("completed");
    const after = hashTree(ws);
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("a\n");

    // A replay answers the stored receipt: same run, same files, nothing written again.
    const replay = await send();
    expect(replay.runId).toBe(planned);
    expect(replay.code?.files.map((f) => f.path).sort()).toEqual(["a.txt", "shared.txt"]);
    expect(hashTree(ws)).toEqual(after);
    expect(await bringBacks(h, parent)).toEqual([planned]);
  }, 240_000);

  it("merge: a retry in the same process finishes it (the branch moves once); a refused append rolls files and branch back", async () => {
    const fault = { next: "refusal" as Fault };
    const { h, ws, parent, fork } = await setUp(fault);
    const userHead = git(ws, "rev-parse", "HEAD").trim();
    const before = hashTree(ws);
    const send = (commandId: string) =>
      h.orchestrator.sendMessage({
        threadId: parent,
        text: "bring it back",
        bringBackFrom: fork,
        code: "merge",
        commandId,
      });

    // Refused after the files and the branch moved: both go back, nothing is left to finish.
    await expect(send("back-r")).rejects.toBeInstanceOf(ConflictError);
    expect(hashTree(ws)).toEqual(before);
    expect(git(ws, "rev-parse", "HEAD").trim()).toBe(userHead);
    expect(git(ws, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await h.store.listIntents()).toEqual([]);
    expect(await bringBacks(h, parent)).toEqual([]);

    // A crash mid-way, then the client retries the same command id.
    fault.next = "crash";
    await expect(send("back-m")).rejects.toThrow(/injected crash/);
    const mergeCommit = git(ws, "rev-parse", "HEAD").trim();
    expect(git(ws, "rev-parse", "HEAD^1").trim()).toBe(userHead);
    h.server.enqueue(responsesTextReply("took it"));
    const retried = await send("back-m");
    expect(retried.code?.commits?.merge).toBe(mergeCommit);
    expect(git(ws, "rev-parse", "HEAD").trim()).toBe(mergeCommit);
    expect(git(ws, "log", "--format=%H", "HEAD").trim().split("\n")).toHaveLength(3);
    expect(git(ws, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await bringBacks(h, parent)).toEqual([retried.runId]);
    await h.orchestrator.waitForRun(retried.runId);
  }, 240_000);
});
