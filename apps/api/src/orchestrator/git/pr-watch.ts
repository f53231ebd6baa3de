import type { EventStore, ProjectionRow } from "@skein/db";
import {
  PreconditionFailedError,
  type PullRequestFact,
  type ThreadId,
  type ThreadPullRequest,
} from "@skein/domain";
import {
  DEFAULT_POLL_INTERVAL_MS,
  type GitHubClient as Octokit,
  parseRepositorySetting,
  PullRequestPoller,
} from "@skein/git-finish";
import type { PrSyncAnswer } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { threadRows } from "../../read-models/thread-pages.ts";
import { inWords } from "./git-errors.ts";

/** The most pull requests one instance watches at once; more wait for a `pr.sync`. */
export const MAX_WATCHED_PULL_REQUESTS = 200;
const FACTS_PER_APPEND = 200;

type Watched = {
  poller: PullRequestPoller;
  number: number;
  timer: NodeJS.Timeout | null;
  /** The poll in flight: a sync joins it instead of polling twice at once. */
  running: Promise<PrSyncAnswer> | null;
};

export type PullRequestWatchDeps = {
  repo: AggregateRepository;
  store: EventStore;
  log: Logger;
  client: () => Promise<Octokit>;
  intervalMs?: number;
  /** Called with each poll's newly recorded facts (auto feedback hooks in here). */
  onRecorded?: (threadId: ThreadId, facts: PullRequestFact[]) => void;
};

/**
 * B17: watches the open pull requests of threads. Each is polled on its own timer (interval, or
 * the wait GitHub asked for), one poll at a time; what a poll sees is recorded through the thread
 * (`RecordPullRequestFacts`), which drops facts it already has, so a restart, a second instance
 * or a webhook never records one twice. Timers are unref'd and stopped by `stop()`.
 */
export class PullRequestWatch {
  private readonly watched = new Map<ThreadId, Watched>();
  private stopped = false;

  constructor(private readonly deps: PullRequestWatchDeps) {}

  /** At start-up: watches the thread (a row of the thread list) if its pull request is open. */
  startFrom(row: ProjectionRow): void {
    const pr = (row.data as { pullRequest?: ThreadPullRequest | null } | null)?.pullRequest;
    if (pr?.state === "open") this.watch(row.id as ThreadId, pr, this.interval());
  }

  /** Watches the thread's pull request, polling first after `firstInMs` (default: the interval). */
  watch(threadId: ThreadId, pr: ThreadPullRequest, firstInMs = this.interval()): void {
    if (this.stopped || this.watched.has(threadId)) return;
    if (this.watched.size >= MAX_WATCHED_PULL_REQUESTS) {
      this.deps.log.warn(
        { threadId },
        "too many pull requests watched; this one polls on pr.sync only",
      );
      return;
    }
    const repo = parseRepositorySetting(pr.repository);
    if (!repo) return;
    const entry: Watched = {
      poller: new PullRequestPoller(this.deps.client, repo, pr.number, this.interval()),
      number: pr.number,
      timer: null,
      running: null,
    };
    this.watched.set(threadId, entry);
    this.schedule(threadId, entry, firstInMs);
  }

  /** `pr.sync`: polls now (or joins the poll in flight) and records what it saw. */
  async sync(threadId: ThreadId): Promise<PrSyncAnswer> {
    const state = await this.deps.repo.refreshThread(threadId);
    const pr = state.thread?.pullRequest;
    if (!pr) throw new PreconditionFailedError(`thread ${threadId} has no pull request`);
    let entry = this.watched.get(threadId);
    if (!entry || entry.number !== pr.number) {
      this.forget(threadId);
      this.watch(threadId, pr, this.interval());
      entry = this.watched.get(threadId);
      if (!entry) throw new PreconditionFailedError("pull requests are not being watched here");
    }
    return this.pollNow(threadId, entry);
  }

  /**
   * A webhook's nudge: polls the open pull requests threads hold on `repository` (only `numbers`
   * when the delivery names them). The delivery's own content is not trusted beyond that: what
   * is recorded is what the poll reads from the API.
   */
  async syncRepository(repository: string, numbers: readonly number[] | null): Promise<number> {
    let synced = 0;
    for await (const row of threadRows(this.deps.store, ["active", "archived"])) {
      const pr = (row.data as { pullRequest?: ThreadPullRequest | null } | null)?.pullRequest;
      if (pr?.state !== "open" || pr.repository.toLowerCase() !== repository.toLowerCase())
        continue;
      if (numbers && !numbers.includes(pr.number)) continue;
      await this.sync(row.id as ThreadId).catch((error: unknown) =>
        this.deps.log.warn({ err: error, threadId: row.id }, "webhook-triggered poll failed"),
      );
      synced += 1;
    }
    return synced;
  }

  stop(): void {
    this.stopped = true;
    for (const threadId of [...this.watched.keys()]) this.forget(threadId);
  }

  private interval(): number {
    return this.deps.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }

  private forget(threadId: ThreadId): void {
    const entry = this.watched.get(threadId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.watched.delete(threadId);
  }

  private schedule(threadId: ThreadId, entry: Watched, inMs: number): void {
    if (this.stopped) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      this.pollNow(threadId, entry).catch((error: unknown) =>
        this.deps.log.warn({ err: error, threadId }, "pull request poll failed"),
      );
    }, inMs);
    entry.timer.unref();
  }

  private pollNow(threadId: ThreadId, entry: Watched): Promise<PrSyncAnswer> {
    if (entry.running) return entry.running;
    const running = this.pollOnce(threadId, entry).finally(() => {
      entry.running = null;
    });
    entry.running = running;
    return running;
  }

  private async pollOnce(threadId: ThreadId, entry: Watched): Promise<PrSyncAnswer> {
    const result = await inWords(() => entry.poller.poll());
    let recorded = 0;
    let sequence = await this.deps.store.headSequence();
    const fresh: PullRequestFact[] = [];
    for (let i = 0; i < result.observations.length; i += FACTS_PER_APPEND) {
      const facts = result.observations.slice(i, i + FACTS_PER_APPEND) as PullRequestFact[];
      const appended = await this.deps.repo.execute({
        type: "RecordPullRequestFacts",
        data: { threadId, number: entry.number, facts },
      });
      recorded += appended.events.length;
      sequence = appended.sequence;
      for (const event of appended.events) {
        if (event.type === "PullRequestFactRecorded") fresh.push(event.data.fact);
      }
    }
    if (fresh.length > 0) this.deps.onRecorded?.(threadId, fresh);
    const state = await this.deps.repo.thread(threadId);
    const open = state.thread?.pullRequest?.state === "open";
    if (open) this.schedule(threadId, entry, result.nextPollInMs);
    else this.forget(threadId);
    if (result.stopped) {
      this.deps.log.warn({ threadId, ...result.stopped }, "pull request poll stopped early");
    }
    return {
      recorded,
      nextPollInMs: result.nextPollInMs,
      stopped: result.stopped?.message ?? null,
      sequence,
    };
  }
}
