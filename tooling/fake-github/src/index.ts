export type {
  FakeCheckRun,
  FakePull,
  FakeRepoOptions,
  FakeReview,
  FakeReviewComment,
  FakeStatus,
  GitHubFault,
  RecordedGitHubRequest,
} from "./model.ts";
export { type FakeGitHub, type FakeGitHubOptions, startFakeGitHub } from "./server.ts";
export { deliverWebhook, signWebhook, type WebhookDelivery } from "./webhook.ts";
