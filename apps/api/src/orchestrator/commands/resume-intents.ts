import type { OrchestratorCommands } from "@skein/contract";
import type { CommandProcedure } from "./command-gate.ts";

type Resumable = Pick<
  OrchestratorCommands,
  | "rollback"
  | "forkThread"
  | "sendMessage"
  | "bringBackCode"
  | "reviewRevert"
  | "gitCommit"
  | "openPullRequest"
  | "sendPullRequestFeedback"
  | "mergePullRequest"
  | "fanOut"
  | "pickWinner"
>;

/** The input each command that records an intent (B3) takes, as its port types it. */
type ResumeInputs = {
  "thread.rollback": Parameters<Resumable["rollback"]>[0];
  "thread.fork": Parameters<Resumable["forkThread"]>[0];
  "thread.sendMessage": Parameters<Resumable["sendMessage"]>[0];
  "thread.bringBackCode": Parameters<Resumable["bringBackCode"]>[0];
  "review.revert": Parameters<Resumable["reviewRevert"]>[0];
  "git.commit": Parameters<Resumable["gitCommit"]>[0];
  "pr.open": Parameters<Resumable["openPullRequest"]>[0];
  "pr.sendFeedback": Parameters<Resumable["sendPullRequestFeedback"]>[0];
  "pr.merge": Parameters<Resumable["mergePullRequest"]>[0];
  "thread.fanOut": Parameters<Resumable["fanOut"]>[0];
  "thread.pickWinner": Parameters<Resumable["pickWinner"]>[0];
};

export type ResumeTable = {
  [P in keyof ResumeInputs]: (input: ResumeInputs[P]) => Promise<unknown>;
};

/** B3: the commands a restart runs again under their id to finish what they recorded. */
export function resumeTable(api: Resumable): ResumeTable {
  return {
    "thread.rollback": (input) => api.rollback(input),
    "thread.fork": (input) => api.forkThread(input),
    "thread.sendMessage": (input) => api.sendMessage(input),
    "thread.bringBackCode": (input) => api.bringBackCode(input),
    "review.revert": (input) => api.reviewRevert(input),
    "git.commit": (input) => api.gitCommit(input),
    "pr.open": (input) => api.openPullRequest(input),
    "pr.sendFeedback": (input) => api.sendPullRequestFeedback(input),
    "pr.merge": (input) => api.mergePullRequest(input),
    // Composites (their intent binds their id while they run): finishing one does only the
    // steps still missing, each under its own id.
    "thread.fanOut": (input) => api.fanOut(input),
    "thread.pickWinner": (input) => api.pickWinner(input),
  };
}

function isResumable(table: ResumeTable, procedure: string): procedure is keyof ResumeInputs {
  return Object.hasOwn(table, procedure);
}

/**
 * Finishes one recorded intent through the table. The input is what the command gate recorded
 * for that procedure: the port's own input, read back from the store as JSON.
 */
export function resumeIntent(
  table: ResumeTable,
  procedure: CommandProcedure,
  input: Record<string, unknown>,
): Promise<unknown> {
  if (!isResumable(table, procedure)) {
    return Promise.reject(new Error(`${procedure} records no intent to finish`));
  }
  return dispatch(table, procedure, input as ResumeInputs[typeof procedure]);
}

function dispatch<P extends keyof ResumeInputs>(
  table: ResumeTable,
  procedure: P,
  input: ResumeInputs[P],
): Promise<unknown> {
  const finish: (input: ResumeInputs[P]) => Promise<unknown> = table[procedure];
  return finish(input);
}
