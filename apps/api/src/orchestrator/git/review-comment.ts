import type { OrchestratorCommands } from "@skein/contract";
import type { ThreadId, ThreadState } from "@skein/domain";
import { reviewCommentsMessage } from "@skein/git-finish";

type Deps = {
  requireThread: (threadId: ThreadId) => Promise<ThreadState>;
  sendMessage: OrchestratorCommands["sendMessage"];
};

/** Who wrote a comment on Skein's own Review page, as the agent reads it. */
const REVIEWER = "the person reviewing in Skein";

/**
 * B17: a comment on a diff line of the Review page is a message to the agent in the words a
 * pull request's review comment gets, so the agent meets one shape of feedback wherever it was
 * written. It is a message like any other: its command id makes a resend answer the first run.
 */
export function reviewCommentCommand(deps: Deps): Pick<OrchestratorCommands, "sendReviewComment"> {
  return {
    sendReviewComment: async (input) => {
      await deps.requireThread(input.threadId);
      const text = reviewCommentsMessage(null, [
        {
          path: input.path,
          line: input.line,
          diffHunk: input.diffHunk,
          body: input.body,
          author: REVIEWER,
        },
      ]);
      const sent = await deps.sendMessage({
        threadId: input.threadId,
        text,
        ...(input.commandId ? { commandId: input.commandId } : {}),
      });
      return { runId: sent.runId, sequence: sent.sequence };
    },
  };
}
