import { rethrowMapped, type ThreadDetailView } from "@skein/contract";
import { NotFoundError, type Run, type RunId, type ThreadId } from "@skein/domain";
import type { ApiCaller, ToolCall } from "./tool-kit.ts";

/**
 * `skein_wait_run`: waits, bounded, for a run to end, driven by the thread's events (never a
 * poll): the run is re-read after each event that can change it, until it is settled or the
 * time is up. A completed run's changed files come from its checkpoint, which is captured just
 * after the run ends, so the wait gives that capture a short while too.
 */

const ACTIVE = new Set<Run["status"]>(["queued", "starting", "running", "waiting"]);
/** How long past its end a run's checkpoint is waited for (within the caller's bound). */
const CHECKPOINT_GRACE_MS = 5_000;

export type RunOutcome = {
  runId: RunId;
  status: Run["status"];
  /** False when the time ran out first: wait again with the same ids. */
  done: boolean;
  provider: Run["provider"];
  error: string | null;
  /** The run's last assistant message (its answer), null while there is none. */
  reply: string | null;
  /** Files the run changed (from its checkpoint), null while it has none. */
  files: Array<{ path: string; status: string; additions: number; deletions: number }> | null;
};

type Found = { run: Run; detail: ThreadDetailView };

async function readRun(api: ApiCaller, threadId: ThreadId, runId: RunId): Promise<Found> {
  const latest = await api.thread.detail({ threadId });
  const run = latest.runs.find((r) => r.id === runId);
  if (run) return { run, detail: latest };
  // Older than the latest window: a run's ordinal is not known from its id, so read them all once.
  const all = await api.thread.detail({ threadId, window: { limit: 500 } });
  const older = all.runs.find((r) => r.id === runId);
  if (!older) rethrowMapped(new NotFoundError("run", runId));
  return { run: older, detail: all };
}

function replyOf(detail: ThreadDetailView, runId: RunId): string | null {
  const texts = detail.turnItems.filter((i) => i.runId === runId && i.type === "assistant_message");
  const last = texts.at(-1);
  return last?.type === "assistant_message" ? last.text : null;
}

/** Ended, and its checkpoint (if it will get one) captured. */
function settled({ run }: Found): boolean {
  return !ACTIVE.has(run.status) && (run.checkpointId !== null || run.status !== "completed");
}

/** Resolves with the promise's value, or null once `signal` aborts (whichever comes first). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export async function waitForRun(
  call: ToolCall,
  input: { threadId: ThreadId; runId: RunId; timeoutMs: number },
): Promise<RunOutcome> {
  const { threadId, runId } = input;
  const { api } = call;
  let found = await readRun(api, threadId, runId);
  if (!settled(found)) {
    const limit = AbortSignal.any([call.signal, AbortSignal.timeout(input.timeoutMs)]);
    const done = new AbortController();
    // Attached at the snapshot just read: nothing that happens after it is missed (S2).
    const events = await call.apiUntil(AbortSignal.any([limit, done.signal])).events.watch({
      threadId,
      lastEventId: String(found.detail.snapshotSequence),
    });
    const iterator = events[Symbol.asyncIterator]();
    let until = limit;
    try {
      for (;;) {
        const next = await unlessAborted(iterator.next(), until);
        if (next === null || next.done) break;
        if (eventType(next.value) === "ItemDeltaAppended") continue;
        found = await readRun(api, threadId, runId);
        if (settled(found)) break;
        if (!ACTIVE.has(found.run.status) && until === limit) {
          until = AbortSignal.any([limit, AbortSignal.timeout(CHECKPOINT_GRACE_MS)]);
        }
      }
    } finally {
      done.abort();
    }
  }
  const { run, detail } = found;
  const files =
    run.checkpointId === null
      ? null
      : (await api.review.diff({ threadId, runId })).files.map((f) => ({
          path: f.path,
          status: f.status,
          additions: f.additions,
          deletions: f.deletions,
        }));
  return {
    runId,
    status: run.status,
    done: !ACTIVE.has(run.status),
    provider: run.provider,
    error: run.error,
    reply: replyOf(detail, runId),
    files,
  };
}

/** A watch message's event type (tracked envelopes carry `[id, { type, event }]`). */
function eventType(envelope: unknown): string | null {
  const data = Array.isArray(envelope) ? envelope[1] : envelope;
  if (typeof data !== "object" || data === null) return null;
  const message = data as { type?: unknown; event?: { type?: unknown } };
  return message.type === "event" && typeof message.event?.type === "string"
    ? message.event.type
    : null;
}
