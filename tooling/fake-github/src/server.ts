import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  FakeCheckRun,
  FakePull,
  FakeRepoOptions,
  FakeReview,
  FakeReviewComment,
  FakeStatus,
  GitHubFault,
  RecordedGitHubRequest,
} from "./model.ts";
import { FakeGitHubState, ROUTES, type Reply } from "./routes.ts";
import { deliverWebhook, type WebhookDelivery } from "./webhook.ts";

export type FakeGitHubOptions = {
  /** The token every request must carry (`Authorization: token …` or `Bearer …`); 401 otherwise. */
  token?: string;
};

export type FakeGitHub = {
  /** Base URL, as `SKEIN_GITHUB_API_URL`. */
  url: string;
  /** Every request answered, in order (304s and faults included). */
  readonly requests: RecordedGitHubRequest[];
  addRepo(fullName: string, options?: FakeRepoOptions): void;
  pulls(fullName: string): readonly FakePull[];
  addCheckRun(
    fullName: string,
    run: Omit<FakeCheckRun, "id" | "output" | "detailsUrl"> & Partial<FakeCheckRun>,
  ): FakeCheckRun;
  /** Changes a check run (e.g. queued → completed/failure). */
  updateCheckRun(id: number, change: Partial<Omit<FakeCheckRun, "id">>): void;
  addStatus(
    fullName: string,
    status: Omit<FakeStatus, "id" | "createdAt" | "description" | "targetUrl"> &
      Partial<FakeStatus>,
  ): FakeStatus;
  addReviewComment(
    fullName: string,
    comment: Omit<FakeReviewComment, "id" | "createdAt" | "side" | "commitId"> &
      Partial<FakeReviewComment>,
  ): FakeReviewComment;
  addReview(
    fullName: string,
    review: Omit<FakeReview, "id" | "submittedAt" | "commitId"> & Partial<FakeReview>,
  ): FakeReview;
  /** Faults for the next matching requests, in order; each answers one request. */
  inject(...faults: GitHubFault[]): void;
  /** Sends a webhook to `url`, signed with `secret` (a wrong one for a bad-signature test). */
  deliver(delivery: WebhookDelivery): Promise<Response>;
  close(): Promise<void>;
};

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const state = new FakeGitHubState();
  const requests: RecordedGitHubRequest[] = [];
  const faults: GitHubFault[] = [];
  let base = "";

  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      const url = new URL(req.url ?? "/", "http://fake");
      const line = `${req.method} ${url.pathname}`;
      const reply = answer(req, line, url, body);
      const headers: Record<string, string> = {
        "content-type": "application/json; charset=utf-8",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "4999",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
        ...reply.headers,
      };
      let status = reply.status;
      let text = reply.body === undefined ? "" : JSON.stringify(reply.body);
      if (req.method === "GET" && status === 200) {
        const etag = `"${createHash("sha1").update(text).digest("hex")}"`;
        headers.etag = etag;
        if (req.headers["if-none-match"] === etag) {
          status = 304;
          text = "";
        }
      }
      requests.push({
        method: req.method ?? "GET",
        url: `${url.pathname}${url.search}`,
        path: url.pathname,
        headers: flatHeaders(req),
        body,
        status,
      });
      res.writeHead(status, headers);
      res.end(text);
    });
  });

  function answer(req: IncomingMessage, line: string, url: URL, body: unknown): Reply {
    const index = faults.findIndex((f) => !f.match || f.match.test(line));
    if (index >= 0) {
      const [fault] = faults.splice(index, 1) as [GitHubFault];
      return {
        status: fault.status,
        body: fault.body ?? { message: "fault" },
        ...(fault.headers ? { headers: fault.headers } : {}),
      };
    }
    if (options.token !== undefined) {
      const auth = req.headers.authorization ?? "";
      if (auth !== `token ${options.token}` && auth !== `Bearer ${options.token}`) {
        return { status: 401, body: { message: "Bad credentials" } };
      }
    }
    for (const route of ROUTES) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const params = match.map((m) => decodeURIComponent(m ?? ""));
      return route.handle(
        state,
        base,
        params,
        url.searchParams,
        (body ?? {}) as Record<string, unknown>,
      );
    }
    return { status: 404, body: { message: "Not Found" } };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const keyOf = (fullName: string) => {
    const key = fullName.toLowerCase();
    if (!state.repos.has(key)) throw new Error(`fake GitHub has no repository ${fullName}`);
    return key;
  };
  const now = () => new Date().toISOString();

  return {
    url: base,
    requests,
    addRepo(fullName, repo = {}) {
      const [owner, name] = fullName.split("/") as [string, string];
      state.repos.set(fullName.toLowerCase(), {
        owner,
        name,
        defaultBranch: repo.defaultBranch ?? "main",
        allowMergeCommit: repo.allowMergeCommit ?? true,
        allowSquashMerge: repo.allowSquashMerge ?? true,
        allowRebaseMerge: repo.allowRebaseMerge ?? true,
        gitDir: repo.gitDir,
      });
    },
    pulls: (fullName) => state.pulls.get(keyOf(fullName)) ?? [],
    addCheckRun(fullName, run) {
      const full: FakeCheckRun = {
        output: { title: null, summary: null, text: null },
        detailsUrl: null,
        ...run,
        id: state.id(),
      };
      state.checkRuns.push({ ...full, repo: keyOf(fullName) });
      return full;
    },
    updateCheckRun(id, change) {
      const run = state.checkRuns.find((r) => r.id === id);
      if (!run) throw new Error(`fake GitHub has no check run ${id}`);
      Object.assign(run, change);
    },
    addStatus(fullName, status) {
      const full: FakeStatus = {
        ...status,
        description: status.description ?? null,
        targetUrl: status.targetUrl ?? null,
        id: state.id(),
        createdAt: now(),
      };
      state.statuses.push({ ...full, repo: keyOf(fullName) });
      return full;
    },
    addReviewComment(fullName, comment) {
      const key = keyOf(fullName);
      const pull = state.pull(key, comment.pullNumber);
      const full: FakeReviewComment = {
        side: "RIGHT",
        commitId: pull?.headSha ?? "0".repeat(40),
        ...comment,
        id: state.id(),
        createdAt: now(),
      };
      state.comments.push({ ...full, repo: key });
      return full;
    },
    addReview(fullName, review) {
      const key = keyOf(fullName);
      const pull = state.pull(key, review.pullNumber);
      const full: FakeReview = {
        commitId: pull?.headSha ?? "0".repeat(40),
        ...review,
        id: state.id(),
        submittedAt: now(),
      };
      state.reviews.push({ ...full, repo: key });
      return full;
    },
    inject: (...more) => faults.push(...more),
    deliver: (delivery) => deliverWebhook(delivery),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
