import { execCommandReply, responsesTextReply } from "@skein/fake-models";
import type { ThreadId, ThreadState } from "@skein/domain";
import type { CodexSkeinHarness } from "./codex-skein-harness.ts";
import { until } from "./until.ts";

/** A thread's latest run has settled and its checkpoint is recorded. */
export function settledWithCheckpoint(h: CodexSkeinHarness, threadId: ThreadId) {
  return until(
    () => h.thread(threadId),
    (state: ThreadState) => {
      const run = state.runs.get(state.runOrder.at(-1)!);
      return run?.status === "completed" && run.checkpointId != null;
    },
    90_000,
  );
}

/**
 * A Codex parent thread in `workspaceRoot` whose first run has completed (a stable point), and
 * one isolated fork made by a real fan-out whose real Codex run ran `command` in its worktree.
 */
export async function parentWithFork(
  h: CodexSkeinHarness,
  workspaceRoot: string,
  command: string,
): Promise<{ parent: ThreadId; fork: ThreadId }> {
  const orchestrator = h.orchestrator;
  const { projectId } = await orchestrator.createProject({ name: "bring", workspaceRoot });
  const { threadId: parent } = await orchestrator.createThread({
    projectId,
    provider: "codex",
    runtimeMode: "full-access",
    // The person's main thread, in their folder: bring-back lands there (forks get worktrees).
    workspace: "local",
  });
  h.server.enqueue(responsesTextReply("parent ready"));
  await h.orchestrator.waitForRun(await h.send(parent, "get ready"));
  await settledWithCheckpoint(h, parent);
  // No login shell (a slow profile on a busy machine), and Codex waits for the command to end.
  const exec = execCommandReply(command, { extra: { login: false, yield_time_ms: 60_000 } });
  h.server.enqueue(exec, responsesTextReply("fork done"));
  const { forks } = await orchestrator.fanOut({
    threadId: parent,
    text: "make your change",
    targets: [{ provider: "codex" }],
    isolated: true,
  });
  const fork = forks[0]!.threadId;
  await settledWithCheckpoint(h, fork);
  return { parent, fork };
}
