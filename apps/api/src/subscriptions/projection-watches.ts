import { NotFoundError, type StoredEvent, type ThreadId, threadStreamId } from "@skein/domain";
import type { ApiContext } from "../context.ts";
import { rethrowMapped } from "../errors.ts";
import type {
  PendingRequestList,
  ProviderSessionsView,
  ThreadGraphView,
} from "../read-models/index.ts";
import { mapped, type Tracked, watchSignal } from "./watches.ts";

/**
 * Events that can change P5: a request opened, answered, withdrawn or re-worded (its questions
 * plan), and the run, attempt and thread transitions that cancel, expire or strand requests.
 */
export const PENDING_REQUEST_EVENT = /^(RuntimeRequest|Run|Attempt|PlanUpdated|Thread)/;

/** Streamed deltas only lengthen a message's text, which no graph node or session holds. */
const NOT_IN_GRAPH = new Set(["ItemDeltaAppended"]);

async function assertThread(ctx: ApiContext, threadId: ThreadId): Promise<void> {
  // A resume skips the snapshot, so an unknown thread has to be caught up front.
  if (!(await ctx.readModels.threadExists(threadId))) {
    rethrowMapped(new NotFoundError("thread", threadId));
  }
}

/**
 * The thread's stream plus the streams of the provider sessions it uses: the sessions known now
 * (a superset of those known at any earlier cursor), and each one a provider thread of the thread
 * is bound to later, from the event that binds it on.
 */
async function threadAndItsSessions(
  ctx: ApiContext,
  threadId: ThreadId,
): Promise<(event: StoredEvent) => boolean> {
  const threadStream = threadStreamId(threadId);
  const sessions = new Set(
    (await ctx.readModels.providerSessions(threadId)).sessions.map(
      ({ session }) => `session-${session.id}`,
    ),
  );
  return (event) => {
    if (event.streamId === threadStream) {
      const id = boundSessionId(event);
      if (id) sessions.add(`session-${id}`);
      return true;
    }
    return sessions.has(event.streamId);
  };
}

function boundSessionId(event: StoredEvent): string | null {
  const data = event.data as {
    providerThread?: { providerSessionId?: string | null };
    changes?: { providerSessionId?: string | null };
  };
  if (event.type === "ProviderThreadRecorded")
    return data.providerThread?.providerSessionId ?? null;
  if (event.type === "ProviderThreadUpdated") return data.changes?.providerSessionId ?? null;
  return null;
}

/** P3: the graph at N, then the thread's events (but deltas) and its sessions' events. */
export async function* watchGraph(
  ctx: ApiContext,
  input: { threadId: ThreadId; lastEventId?: string | null },
  signal: AbortSignal | undefined,
): Tracked<ThreadGraphView> {
  await assertThread(ctx, input.threadId);
  const follows = await threadAndItsSessions(ctx, input.threadId);
  yield* mapped({
    store: ctx.store,
    select: (event) => follows(event) && !NOT_IN_GRAPH.has(event.type),
    lastEventId: input.lastEventId,
    maxReplayEvents: ctx.watch.maxReplayEvents,
    snapshot: () => ctx.readModels.graph(input.threadId),
    signal: watchSignal(ctx, signal),
  });
}

/** P4 for one thread: its sessions at N, then the events that bind or change them. */
export async function* watchProviderSessions(
  ctx: ApiContext,
  input: { threadId: ThreadId; lastEventId?: string | null },
  signal: AbortSignal | undefined,
): Tracked<ProviderSessionsView> {
  await assertThread(ctx, input.threadId);
  const follows = await threadAndItsSessions(ctx, input.threadId);
  yield* mapped({
    store: ctx.store,
    select: (event) => follows(event) && /^Provider(Session|Thread)/.test(event.type),
    lastEventId: input.lastEventId,
    maxReplayEvents: ctx.watch.maxReplayEvents,
    snapshot: () => ctx.readModels.providerSessions(input.threadId),
    signal: watchSignal(ctx, signal),
  });
}

/** P5 (one thread's or every thread's): the pending requests at N, then what can change them. */
export async function* watchPendingRequests(
  ctx: ApiContext,
  input: { threadId?: ThreadId; lastEventId?: string | null },
  signal: AbortSignal | undefined,
): Tracked<PendingRequestList> {
  const { threadId } = input;
  if (threadId !== undefined) await assertThread(ctx, threadId);
  yield* mapped({
    store: ctx.store,
    filter:
      threadId === undefined
        ? { streamPrefix: "thread-" }
        : { streamIds: [threadStreamId(threadId)] },
    select: (event) => PENDING_REQUEST_EVENT.test(event.type),
    lastEventId: input.lastEventId,
    maxReplayEvents: ctx.watch.maxReplayEvents,
    snapshot: () => ctx.readModels.pendingRequests(threadId),
    signal: watchSignal(ctx, signal),
  });
}
