import { NotFoundError, type ThreadId, threadStreamId } from "@skein/domain";
import type { TrackedEnvelope } from "@trpc/server";
import type { ApiContext } from "../context.ts";
import { rethrowMapped } from "../errors.ts";
import type {
  DetailWindowInput,
  ShellPageInput,
  ThreadDetailView,
  ThreadShells,
} from "../read-models/index.ts";
import { type WatchStreamOptions, watchStream } from "./watch-stream.ts";
import type { LogPosition, WatchMessage } from "@skein/contract";

export type Tracked<T> = AsyncGenerator<TrackedEnvelope<WatchMessage<T>>, void, unknown>;

/** Ends with the request or with server shutdown, whichever comes first. */
export function watchSignal(ctx: ApiContext, request: AbortSignal | undefined): AbortSignal {
  return request ? AbortSignal.any([request, ctx.watch.shutdownSignal]) : ctx.watch.shutdownSignal;
}

/** Errors thrown while streaming get the same tRPC codes as query errors. */
export async function* mapped<T extends { snapshotSequence: number }>(
  options: WatchStreamOptions<T>,
): Tracked<T> {
  try {
    yield* watchStream(options);
  } catch (error) {
    rethrowMapped(error);
  }
}

/** Thread-stream events that can change a sidebar row (status, counts, title, archive, new). */
// A conversation checkpoint carries the row's diff stat (issue 29). Kept equal to shells-store.tsx's.
const SHELL_EVENT = /^(Thread|Run|Attempt|RuntimeRequest|Checkpoint(Recorded|MarkedMissing))/;

export function watchShells(
  ctx: ApiContext,
  input: Omit<ShellPageInput, "cursor"> & { lastEventId?: string | null },
  signal: AbortSignal | undefined,
): Tracked<ThreadShells> {
  const { lastEventId, ...page } = input;
  return mapped({
    store: ctx.store,
    filter: { streamPrefix: "thread-" },
    select: (event) => SHELL_EVENT.test(event.type),
    lastEventId,
    maxReplayEvents: ctx.watch.maxReplayEvents,
    snapshot: () => ctx.readModels.shells(page),
    signal: watchSignal(ctx, signal),
  });
}

export async function* watchDetail(
  ctx: ApiContext,
  input: { threadId: ThreadId; lastEventId?: string | null; window?: DetailWindowInput },
  signal: AbortSignal | undefined,
): Tracked<ThreadDetailView> {
  // A resume skips the snapshot, so an unknown thread has to be caught up front.
  if (!(await ctx.readModels.threadExists(input.threadId))) {
    rethrowMapped(new NotFoundError("thread", input.threadId));
  }
  yield* mapped({
    store: ctx.store,
    filter: { streamIds: [threadStreamId(input.threadId)] },
    lastEventId: input.lastEventId,
    maxReplayEvents: ctx.watch.maxReplayEvents,
    snapshot: () => ctx.readModels.detail(input.threadId, input.window),
    signal: watchSignal(ctx, signal),
  });
}

/**
 * The raw log (optionally one thread's stream). Unlike the projection watches it replays any gap,
 * however large, page by page at the consumer's pace: `lastEventId: "0"` streams the whole log.
 */
export async function* watchEvents(
  ctx: ApiContext,
  input: { threadId?: ThreadId; lastEventId?: string | null },
  signal: AbortSignal | undefined,
): Tracked<LogPosition> {
  const { threadId } = input;
  if (threadId !== undefined && !(await ctx.readModels.threadExists(threadId))) {
    rethrowMapped(new NotFoundError("thread", threadId));
  }
  yield* mapped({
    store: ctx.store,
    ...(threadId === undefined ? {} : { filter: { streamIds: [threadStreamId(threadId)] } }),
    lastEventId: input.lastEventId,
    maxReplayEvents: Number.POSITIVE_INFINITY,
    snapshot: async () => ({ snapshotSequence: await ctx.store.headSequence() }),
    signal: watchSignal(ctx, signal),
  });
}
