import { createHash } from "node:crypto";
import type { OrchestratorCommands } from "@skein/contract";
import type { CommandId, PullRequestFact, ThreadId, ThreadState } from "@skein/domain";
import { isFailingCheck } from "@skein/git-finish";
import type { Logger } from "../logger.ts";

type Deps = {
  thread: (threadId: ThreadId) => Promise<ThreadState>;
  send: OrchestratorCommands["sendPullRequestFeedback"];
  log: Logger;
};

/**
 * B17, "automatically, a per-thread setting": the review comments and failing checks a poll
 * has just recorded go to the agent without a click when the thread asks for it. The command id
 * is derived from the facts sent, so a second poll (this instance or another) that saw the same
 * facts replays the first one's receipt instead of sending them twice.
 */
export function autoFeedback(deps: Deps) {
  // Called without awaiting from the poll: it never rejects, a failure is logged.
  return async (threadId: ThreadId, fresh: readonly PullRequestFact[]): Promise<void> => {
    try {
      await sendFresh(threadId, fresh);
    } catch (error) {
      deps.log.warn({ err: error, threadId }, "automatic pull request feedback was not sent");
    }
  };

  async function sendFresh(threadId: ThreadId, fresh: readonly PullRequestFact[]): Promise<void> {
    const commentIds = fresh.filter((f) => f.kind === "comment").map((f) => f.id);
    const checkRunIds = fresh
      .filter((f) => f.kind === "check" && isFailingCheck(f))
      .map((f) => (f as Extract<PullRequestFact, { kind: "check" }>).id);
    if (commentIds.length === 0 && checkRunIds.length === 0) return;
    const state = await deps.thread(threadId);
    const thread = state.thread;
    if (!thread?.autoFeedback || thread.archivedAt || thread.deletedAt) return;
    if (thread.pullRequest?.state !== "open") return;
    const unsent = (prefix: string, ids: number[]) =>
      ids.filter((id) => !state.pullRequestSentSubjects.has(`${prefix}:${id}`));
    const comments = unsent("comment", commentIds);
    const checks = unsent("check", checkRunIds);
    if (comments.length === 0 && checks.length === 0) return;
    await deps.send({
      threadId,
      ...(comments.length > 0 ? { commentIds: comments } : {}),
      ...(checks.length > 0 ? { checkRunIds: checks } : {}),
      commandId: autoFeedbackCommandId(threadId, comments, checks),
    });
  }
}

function autoFeedbackCommandId(
  threadId: ThreadId,
  comments: readonly number[],
  checks: readonly number[],
): CommandId {
  const subjects = [...comments.map((c) => `comment:${c}`), ...checks.map((c) => `check:${c}`)];
  const hash = createHash("sha256")
    .update(`${threadId}|${subjects.sort().join(",")}`)
    .digest("hex")
    .slice(0, 32);
  return `cmd_prauto_${hash}` as CommandId;
}
