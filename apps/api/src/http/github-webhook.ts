import type http from "node:http";
import { verifyWebhookSignature } from "@skein/git-finish";
import type { Logger } from "../orchestrator/logger.ts";

export const GITHUB_WEBHOOK_PATH = "/webhooks/github";
/** GitHub caps deliveries at 25 MB; the events Skein reads are far smaller. */
const MAX_WEBHOOK_BYTES = 5 * 1024 * 1024;

export type GitHubWebhookOptions = {
  secret: string;
  /** Polls the named repository's watched pull requests (only `numbers` when given). */
  nudge(repository: string, numbers: readonly number[] | null): Promise<unknown>;
  log: Logger;
};

type Payload = {
  repository?: { full_name?: string };
  pull_request?: { number?: number };
  check_run?: { pull_requests?: { number?: number }[] };
  check_suite?: { pull_requests?: { number?: number }[] };
};

/**
 * B17 `POST /webhooks/github`: a delivery whose `X-Hub-Signature-256` is not the HMAC of its body
 * under the configured secret is refused (401) and does nothing. A signed one makes the watch
 * poll the repository's pull requests (202 at once; the poll records what it reads).
 */
export async function serveGitHubWebhook(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: GitHubWebhookOptions,
): Promise<void> {
  const reply = (status: number, message: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ message }));
  };
  if (req.method !== "POST") return reply(405, "POST a GitHub webhook delivery here");
  const body = await readBounded(req);
  if (body === null) return reply(413, `deliveries over ${MAX_WEBHOOK_BYTES} bytes are refused`);
  const signature = req.headers["x-hub-signature-256"];
  if (
    !verifyWebhookSignature(options.secret, body, typeof signature === "string" ? signature : null)
  ) {
    options.log.warn(
      { delivery: req.headers["x-github-delivery"] },
      "webhook with a bad signature refused",
    );
    return reply(401, "the signature does not match this server's webhook secret");
  }
  const event = String(req.headers["x-github-event"] ?? "");
  if (event === "ping") return reply(200, "pong");
  let payload: Payload;
  try {
    payload = JSON.parse(body.toString("utf8")) as Payload;
  } catch {
    return reply(400, "the delivery is not JSON");
  }
  const repository = payload.repository?.full_name;
  if (!repository) return reply(202, "no repository named; nothing to do");
  const numbers = numbersOf(payload);
  reply(202, "accepted");
  options
    .nudge(repository, numbers)
    .catch((error: unknown) => options.log.warn({ err: error }, "webhook nudge failed"));
}

function numbersOf(payload: Payload): number[] | null {
  if (typeof payload.pull_request?.number === "number") return [payload.pull_request.number];
  const linked = [
    ...(payload.check_run?.pull_requests ?? []),
    ...(payload.check_suite?.pull_requests ?? []),
  ]
    .map((p) => p.number)
    .filter((n): n is number => typeof n === "number");
  // Statuses and unlinked checks name a commit, not a PR: every watched PR of the repository.
  return linked.length > 0 ? linked : null;
}

async function readBounded(req: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BYTES) {
      req.resume();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
