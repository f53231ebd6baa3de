import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

const files = [{ path: "app.ts", additions: 2, deletions: 1, status: "modified" as const }];

/** A thread with a settled run, a fork of it, and a safety checkpoint of its workspace. */
function forked() {
  const src = new ThreadScenario("src").create("codex");
  const base = src.completedRun("one", { checkpoint: true });
  const fork = new ThreadScenario("fork").forkOf(src);
  const anchor = src.state.checkpoints.get(base.checkpointId!)!;
  const scopeId = id("checkpointScope", "safety");
  src.exec({
    type: "RecordCheckpointScope",
    data: {
      threadId: src.threadId,
      scopeId,
      kind: "manual",
      nodeId: anchor.nodeId,
      runId: anchor.runId,
      cwd: "/w",
    },
  });
  const undoCheckpointId = id("checkpoint", "safety");
  src.exec({
    type: "RecordCheckpoint",
    data: {
      threadId: src.threadId,
      checkpointId: undoCheckpointId,
      scopeId,
      ref: "refs/skein/safety",
      status: "ready",
      files,
    },
  });
  const command = {
    type: "RecordCodeBroughtBack" as const,
    data: { threadId: src.threadId, forkThreadId: fork.threadId, undoCheckpointId, files },
  };
  return { src, fork, command };
}

describe("issue 26: a fork's code brought back without its conversation", () => {
  it("records the files and the undo checkpoint as a git item in the thread, with no run and no transfer", () => {
    const { src, fork, command } = forked();
    const runsBefore = src.state.runs.size;
    const { after } = given(src.events)
      .when(command, readThreads(fork.state))
      .then([
        {
          type: "CodeBroughtBack",
          data: {
            forkThreadId: fork.threadId,
            undoCheckpointId: command.data.undoCheckpointId,
            files,
            item: { type: "git", action: "code_brought_back", runId: null },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error("not a thread");
    const item = [...after.turnItems.values()].at(-1)?.item;
    expect(item).toMatchObject({
      title: `Brought back the code of "${fork.state.thread!.title}" (1 file, no conversation)`,
      detail: "modified app.ts (+2 −1)",
      ref: command.data.undoCheckpointId,
    });
    expect(after.runs.size).toBe(runsBefore);
    expect(after.transfers.size).toBe(src.state.transfers.size);
  });

  it("refused while a run works in the workspace, for a thread that is not its fork, and without its undo checkpoint", () => {
    const { src, fork, command } = forked();
    const other = new ThreadScenario("other").create();
    given(src.events)
      .when(
        { ...command, data: { ...command.data, forkThreadId: other.threadId } },
        readThreads(other.state),
      )
      .thenFails("precondition_failed", /not a fork/);
    given(src.events)
      .when(
        { ...command, data: { ...command.data, undoCheckpointId: id("checkpoint", "nope") } },
        readThreads(fork.state),
      )
      .thenFails("precondition_failed", /could not be undone/);
    given(src.events).when(command, {}).thenFails("not_found");
    given(src.events)
      .when({ ...command, data: { ...command.data, files: [] } }, readThreads(fork.state))
      .thenFails("validation");
    const runId = src.queue("busy");
    src.start(runId);
    given(src.events)
      .when(command, readThreads(fork.state))
      .thenFails("precondition_failed", /is working in this thread's workspace/);
  });
});
