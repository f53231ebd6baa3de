import { createHash } from "node:crypto";
import type { OrchestratorCommands } from "@skein/contract";
import type { EventStore } from "@skein/db";
import {
  type CommandId,
  PreconditionFailedError,
  projectSettingsOf,
  type PullRequestFact,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import {
  commitChanges,
  configuredRemoteUrl,
  createGitHubClient,
  defaultRemote,
  draftCommitMessage,
  failingCheckMessage,
  type GitHubEnv,
  headOf,
  isFailingCheck,
  mergePullRequest,
  openPullRequest,
  parseRemoteUrl,
  parseRepositorySetting,
  pushBranch,
  type RepositoryRef,
  reviewCommentsMessage,
} from "@skein/git-finish";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import type { Logger } from "../logger.ts";
import { autoFeedback } from "./auto-feedback.ts";
import { inWords } from "./git-errors.ts";
import { pullRequestBody } from "./pr-body.ts";
import { reviewCommentCommand } from "./review-comment.ts";
import { PullRequestWatch } from "./pr-watch.ts";

/** B17: how Skein reaches GitHub. */
export type GitHubSettings = {
  env: GitHubEnv;
  /** Skein's web URL, for the link back in a PR body; null: the thread's id instead. */
  publicUrl?: string | null;
  pollIntervalMs?: number;
  /** `gh auth token`, or a stand-in (tests: none). */
  ghToken?: () => Promise<string | null>;
};

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  store: EventStore;
  log: Logger;
  requireThread: (threadId: ThreadId) => Promise<ThreadState>;
  sendMessage: OrchestratorCommands["sendMessage"];
  /** Archives a thread that has its own worktree once its PR merged (hygiene removes it). */
  archive: OrchestratorCommands["archive"];
  github: GitHubSettings;
};

type Commands = Pick<
  OrchestratorCommands,
  | "gitCommit"
  | "gitPush"
  | "openPullRequest"
  | "syncPullRequest"
  | "sendPullRequestFeedback"
  | "mergePullRequest"
  | "sendReviewComment"
>;

/**
 * B17, the git finish line: commit, push, open the pull request, watch it, feed review comments
 * and failing checks back to the agent, merge. Every effect runs under the command gate (a
 * replayed command id answers its receipt), and each is safe to repeat: a commit retried under
 * its recorded parent finds itself, a push of what the remote has is a no-op, a PR is looked up
 * before it is opened, a merged PR answers as merged, feedback messages carry derived command
 * ids. This is the one place PR effects live; each runs under its command id's effect claim.
 */
export function gitFinishCommands(deps: Deps): { commands: Commands; watch: PullRequestWatch } {
  const { gate, repo, requireThread, github } = deps;
  const client = () => createGitHubClient(github.env, github.ghToken);
  const sendAutomatically = autoFeedback({
    thread: (threadId) => repo.thread(threadId),
    send: (input) => commands.sendPullRequestFeedback(input),
    log: deps.log,
  });
  const watch = new PullRequestWatch({
    repo,
    store: deps.store,
    log: deps.log,
    client,
    onRecorded: (threadId, fresh) => {
      void sendAutomatically(threadId, fresh);
    },
    ...(github.pollIntervalMs !== undefined ? { intervalMs: github.pollIntervalMs } : {}),
  });

  const workspaceOf = async (state: ThreadState): Promise<string> => {
    const project = await repo.project(state.thread!.projectId);
    const cwd = state.thread!.worktreePath ?? project.project?.workspaceRoot;
    if (!cwd) throw new PreconditionFailedError("the thread has no workspace");
    return cwd;
  };

  const repositoryOf = async (cwd: string, branch: string, asked?: string) => {
    if (asked) {
      const ref = parseRepositorySetting(asked);
      if (ref) return ref;
    }
    const url = await inWords(async () =>
      configuredRemoteUrl(cwd, await defaultRemote(cwd, branch)),
    );
    const ref = parseRemoteUrl(url);
    if (!ref) {
      throw new PreconditionFailedError(
        `the push remote (${url}) is not a GitHub repository URL: give repository "owner/name"`,
      );
    }
    return ref;
  };

  const requirePullRequest = async (threadId: ThreadId) => {
    const state = await repo.refreshThread(threadId);
    if (!state.thread) await requireThread(threadId);
    const pr = state.thread?.pullRequest;
    if (!pr)
      throw new PreconditionFailedError(`thread ${threadId} has no pull request; open one first`);
    return { state, pr, ref: parseRepositorySetting(pr.repository) as RepositoryRef };
  };

  const commands: Commands = {
    ...reviewCommentCommand({ requireThread, sendMessage: deps.sendMessage }),
    gitCommit: (input) =>
      gate.run(
        "git.commit",
        input,
        async (command) => {
          const state = await requireThread(input.threadId);
          const cwd = await workspaceOf(state);
          const requests = [...state.messages.values()]
            .filter((m) => m.role === "user")
            .map((m) => m.text);
          const head = await inWords(() => headOf(cwd));
          const decided = await command.intend({
            parent: head.sha,
            message: input.message ?? draftCommitMessage(state.thread!.title, requests),
          });
          const commit = await inWords(() =>
            commitChanges({
              cwd,
              message: decided.message,
              ...(input.paths ? { paths: input.paths } : {}),
              expectedParent: decided.parent,
            }),
          );
          const answer = {
            sha: commit.sha,
            branch: commit.branch ?? "",
            files: commit.files,
            message: decided.message,
          };
          const result = await repo.execute(
            {
              type: "RecordGitCommit",
              data: {
                threadId: input.threadId,
                commit: {
                  sha: commit.sha,
                  parent: commit.parent,
                  branch: commit.branch ?? "HEAD",
                  message: decided.message,
                  files: commit.files,
                },
              },
            },
            command.answer(answer),
          );
          return { ...(result.receipt as typeof answer), sequence: result.sequence };
        },
        { effects: true },
      ),

    gitPush: (input) =>
      gate.run("git.push", input, async (command) => {
        const state = await requireThread(input.threadId);
        const cwd = await workspaceOf(state);
        const pushed = await inWords(() =>
          pushBranch({
            cwd,
            ...(input.remote ? { remote: input.remote } : {}),
            ...(input.branch ? { branch: input.branch } : {}),
          }),
        );
        const answer = { remote: pushed.remote, branch: pushed.branch, sha: pushed.sha };
        const result = await repo.execute(
          { type: "RecordGitPush", data: { threadId: input.threadId, push: answer } },
          command.answer(answer),
        );
        // A push to the PR's branch is the agent's follow-up: look at the PR again soon.
        const pr = state.thread?.pullRequest;
        if (pr?.state === "open" && pr.head === pushed.branch) {
          watch.sync(input.threadId).catch(() => {});
        }
        return { ...answer, sequence: result.sequence };
      }),

    openPullRequest: (input) =>
      gate.run(
        "pr.open",
        input,
        async (command) => {
          const state = await requireThread(input.threadId);
          const cwd = await workspaceOf(state);
          const head = await inWords(() => headOf(cwd));
          if (!head.branch) {
            throw new PreconditionFailedError("the thread's worktree is not on a branch");
          }
          const project = (await repo.project(state.thread!.projectId)).project;
          const configured = project ? projectSettingsOf(project).githubRepository : null;
          const ref = await repositoryOf(
            cwd,
            head.branch,
            input.repository ?? configured ?? undefined,
          );
          const opened = await inWords(async () =>
            openPullRequest(await client(), {
              repo: ref,
              head: head.branch as string,
              ...(input.base ? { base: input.base } : {}),
              title: input.title ?? state.thread!.title,
              body: input.body ?? pullRequestBody(state, github.publicUrl ?? null),
              ...(input.draft !== undefined ? { draft: input.draft } : {}),
            }),
          );
          const pr = opened.pull;
          const repository = `${ref.owner}/${ref.name}`;
          const answer = {
            number: pr.number,
            url: pr.url,
            repository,
            head: pr.head,
            base: pr.base,
            created: opened.created,
          };
          const result = await repo.execute(
            {
              type: "RecordPullRequest",
              data: {
                threadId: input.threadId,
                pullRequest: {
                  repository,
                  number: pr.number,
                  url: pr.url,
                  head: pr.head,
                  base: pr.base,
                  headSha: pr.headSha,
                  title: pr.title,
                  draft: pr.draft,
                  state: pr.state,
                },
              },
            },
            command.answer(answer),
          );
          const recorded = (await repo.thread(input.threadId)).thread?.pullRequest;
          if (recorded?.state === "open") watch.watch(input.threadId, recorded);
          return { ...(result.receipt as typeof answer), sequence: result.sequence };
        },
        { effects: true },
      ),

    syncPullRequest: async ({ threadId }) => {
      await requireThread(threadId);
      return watch.sync(threadId);
    },

    sendPullRequestFeedback: (input) =>
      gate.run(
        "pr.sendFeedback",
        input,
        async (command) => {
          const { state, pr } = await requirePullRequest(input.threadId);
          const chosen = chooseFeedback(state, input.commentIds, input.checkRunIds);
          const decided = await command.intend({
            subjects: chosen.subjects,
            texts: feedbackTexts(pr.number, chosen.facts),
          });
          const runIds: RunId[] = [];
          for (const [index, text] of decided.texts.entries()) {
            const sent = await deps.sendMessage({
              threadId: input.threadId,
              text,
              commandId: derivedCommandId(command.commandId ?? "", index),
            });
            runIds.push(sent.runId);
          }
          const result = await repo.execute(
            {
              type: "RecordPullRequestFeedback",
              data: { threadId: input.threadId, subjects: decided.subjects, runIds },
            },
            command.answer({ runIds }),
          );
          return { runIds, sequence: result.sequence };
        },
        { effects: true },
      ),

    mergePullRequest: (input) =>
      gate.run(
        "pr.merge",
        input,
        async (command) => {
          await watch.sync(input.threadId).catch(() => null);
          const { state, pr, ref } = await requirePullRequest(input.threadId);
          if (pr.state === "closed") {
            throw new PreconditionFailedError(`pull request #${pr.number} is closed`);
          }
          if (pr.state === "open") refuseUnfinishedChecks(pr);
          const merged = await inWords(async () =>
            mergePullRequest(await client(), ref, pr.number, pr.headSha),
          );
          const result = await repo.execute(
            {
              type: "RecordPullRequestMerged",
              data: { threadId: input.threadId, number: pr.number, ...merged },
            },
            command.answer(merged),
          );
          if (state.thread?.worktreePath && !state.thread.archivedAt) {
            await deps
              .archive({ threadId: input.threadId })
              .catch((error: unknown) =>
                deps.log.warn({ err: error }, "merged thread could not be archived"),
              );
          }
          return { ...(result.receipt as typeof merged), sequence: result.sequence };
        },
        { effects: true },
      ),
  };
  return { commands, watch };
}

type Chosen = { subjects: string[]; facts: PullRequestFact[] };

/** The comments and failing checks to send: as asked, or every one not sent yet. */
function chooseFeedback(
  state: ThreadState,
  commentIds: number[] | undefined,
  checkRunIds: number[] | undefined,
): Chosen {
  const known = state.pullRequestFeedback;
  const subjects: string[] = [];
  if (commentIds || checkRunIds) {
    for (const id of commentIds ?? []) subjects.push(`comment:${id}`);
    for (const id of checkRunIds ?? []) subjects.push(`check:${id}`);
    for (const subject of subjects) {
      const fact = known.get(subject);
      if (!fact) {
        throw new PreconditionFailedError(
          `the pull request has no ${subject.replace(":", " ")} (sync it first?)`,
        );
      }
      if (fact.kind === "check" && !isFailingCheck(fact)) {
        throw new PreconditionFailedError(`check ${fact.name} has not failed (${fact.status})`);
      }
    }
  } else {
    for (const [subject, fact] of known) {
      if (state.pullRequestSentSubjects.has(subject)) continue;
      if (fact.kind === "comment" || (fact.kind === "check" && isFailingCheck(fact))) {
        subjects.push(subject);
      }
    }
    if (subjects.length === 0) {
      throw new PreconditionFailedError("no review comment or failing check is waiting to be sent");
    }
  }
  return { subjects, facts: subjects.map((s) => known.get(s) as PullRequestFact) };
}

/** One message for all the comments; one per failing check. */
function feedbackTexts(prNumber: number, facts: readonly PullRequestFact[]): string[] {
  const comments = facts.filter((f) => f.kind === "comment");
  const texts = comments.length > 0 ? [reviewCommentsMessage(prNumber, comments)] : [];
  for (const fact of facts) {
    if (fact.kind === "check") texts.push(failingCheckMessage(prNumber, fact));
  }
  return texts;
}

function refuseUnfinishedChecks(pr: NonNullable<ThreadState["thread"]>["pullRequest"]): void {
  if (!pr) return;
  const current = pr.checks.filter((c) => c.headSha === pr.headSha);
  const failing = current.filter(
    (c) =>
      c.status === "completed" &&
      !["success", "neutral", "skipped"].includes(c.conclusion ?? "success"),
  );
  const pending = current.filter((c) => c.status !== "completed");
  if (failing.length > 0 || pending.length > 0) {
    const words = [
      failing.length > 0 ? `failing: ${failing.map((c) => c.name).join(", ")}` : null,
      pending.length > 0 ? `still running: ${pending.map((c) => c.name).join(", ")}` : null,
    ]
      .filter(Boolean)
      .join("; ");
    throw new PreconditionFailedError(
      `pull request #${pr.number} has checks that have not passed (${words})`,
    );
  }
}

/** The command id of a feedback command's n-th message: a retry sends none of them twice. */
function derivedCommandId(commandId: string, index: number): CommandId {
  const hash = createHash("sha256").update(`${commandId}#${index}`).digest("hex").slice(0, 32);
  return `cmd_prfb_${hash}` as CommandId;
}
