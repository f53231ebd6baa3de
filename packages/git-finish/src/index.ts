export { type CommitInput, type CommitResult, commitChanges, headOf } from "./commit.ts";
export { GitFinishError, type GitFinishErrorKind } from "./errors.ts";
export {
  draftCommitMessage,
  failingCheckMessage,
  isFailingCheck,
  reviewCommentsMessage,
} from "./feedback.ts";
export {
  createGitHubClient,
  type GitHubClient,
  type GitHubEnv,
  gitHubFailure,
  resolveGitHubToken,
} from "./github-client.ts";
export { CHECK_EXCERPT_MAX_CHARS, type PrObservation } from "./observations.ts";
export {
  DEFAULT_POLL_INTERVAL_MS,
  MAX_POLL_BACKOFF_MS,
  type PollResult,
  PullRequestPoller,
  rateLimitWait,
} from "./poller.ts";
export {
  findOpenPull,
  type MergeMethod,
  mergePullRequest,
  type OpenPullRequestInput,
  openPullRequest,
  type PullRequestInfo,
} from "./pull-request.ts";
export {
  configuredRemoteUrl,
  defaultRemote,
  type PushInput,
  type PushResult,
  pushBranch,
  remoteUrlOf,
} from "./push.ts";
export { parseRemoteUrl, parseRepositorySetting, type RepositoryRef } from "./repository.ts";
export { verifyWebhookSignature } from "./webhook-signature.ts";
