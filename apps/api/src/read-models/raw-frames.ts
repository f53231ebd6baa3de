import { compareRawEventIds, type EventStore, type RawLogReader } from "@skein/db";
import {
  type ExecutionNode,
  type NodeId,
  NotFoundError,
  type RawFrames,
  type Run,
  type RunId,
  type RunStatus,
  type ThreadId,
  type ThreadShell,
} from "@skein/domain";
import { getData } from "./rows.ts";
import type { RawFramesView, RawFrameView } from "@skein/contract";

/** At most this many frames per answer; a run's whole stream of deltas can be far more. */
export const MAX_RAW_FRAMES = 2_000;

type RawInput = { threadId: ThreadId; runId: RunId; nodeId?: NodeId | undefined };

/** A run that can lead to no more frames. */
const ENDED: ReadonlySet<RunStatus> = new Set([
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "rolled_back",
]);

/**
 * B8: the raw frames of a run (or of one of its nodes). Every node keeps the first and latest
 * frame it came from (a turn's root node its turn start and end frames); the answer is the log
 * between the earliest and the latest of those, kept to the provider sessions the nodes' frames
 * belong to, each with the sequences it led to. Frames that rotated out of the bounded log are
 * gone (E18), so a range may come back short.
 */
export async function readRawFrames(
  store: EventStore,
  rawLog: RawLogReader | null,
  input: RawInput,
): Promise<RawFramesView> {
  const { ended: _ended, ...view } = await readRawFramesAfter(store, rawLog, input, null);
  return view;
}

/**
 * The frames of `readRawFrames` that lie after `after` in log order (all of them for null), with
 * whether the run has ended. A node's range only ever grows at its end and a turn's root node
 * holds its first frame from the start, so what lies after a frame already sent is everything
 * not sent yet: the cursor `events.watchRaw` resumes from.
 */
export async function readRawFramesAfter(
  store: EventStore,
  rawLog: RawLogReader | null,
  input: RawInput,
  after: string | null,
): Promise<RawFramesView & { ended: boolean }> {
  const { data } = await store.snapshot((q) => runNodes(q, input));
  const { nodes, run } = data;
  const base = {
    threadId: input.threadId,
    runId: input.runId,
    nodeId: input.nodeId ?? null,
    ended: ENDED.has(run.status),
  };
  if (rawLog === null) return { ...base, logged: false, frames: [], truncated: false };
  const ranges = nodes.flatMap((n) => (n.rawFrames ? [n.rawFrames] : []));
  const span = spanOf(ranges);
  if (span === null) return { ...base, logged: true, frames: [], truncated: false };
  const from =
    after !== null && (compareRawEventIds(after, span.first) ?? -1) > 0 ? after : span.first;
  const firsts = rawLog.readMany(ranges.map((r) => r.first));
  const sessions = new Set([...firsts.values()].map(sessionOf).filter((s) => s !== null));
  const records = rawLog
    .readRange(from, span.last, {
      limit: MAX_RAW_FRAMES + 2,
      keep: (record) => sessions.has(sessionOf(record) ?? ""),
    })
    .filter((r) => r.rawEventId !== after);
  const truncated = records.length > MAX_RAW_FRAMES;
  const kept = records.slice(0, MAX_RAW_FRAMES);
  const linked = await store.rawSequences(kept.map((r) => r.rawEventId));
  const sequences = new Map<string, number[]>();
  for (const { rawEventId, sequence } of linked) {
    sequences.set(rawEventId, [...(sequences.get(rawEventId) ?? []), sequence]);
  }
  const frames = kept.map(({ rawEventId, record }) => {
    const led = sequences.get(rawEventId) ?? [];
    return { rawEventId, ...fieldsOf(record), sequence: led[0] ?? null, sequences: led };
  });
  return { ...base, logged: true, frames, truncated };
}

async function runNodes(
  q: Parameters<Parameters<EventStore["snapshot"]>[0]>[0],
  input: RawInput,
): Promise<{ run: Run; nodes: ExecutionNode[] }> {
  const thread = await getData<ThreadShell>(q, "threads", input.threadId);
  if (thread === undefined) throw new NotFoundError("thread", input.threadId);
  const run = await getData<Run>(q, "runs", input.runId);
  if (run === undefined || run.threadId !== input.threadId) {
    throw new NotFoundError("run", input.runId);
  }
  const rows = await q.list("nodes", { threadId: input.threadId, runOrdinal: run.ordinal });
  const nodes = rows.map((row) => row.data as ExecutionNode).filter((n) => n.runId === run.id);
  if (input.nodeId === undefined) return { run, nodes };
  const node = nodes.find((n) => n.id === input.nodeId);
  if (node === undefined) throw new NotFoundError("node", input.nodeId);
  return { run, nodes: [node] };
}

/** The earliest first and the latest last frame of the ranges, in log order. */
function spanOf(ranges: readonly RawFrames[]): RawFrames | null {
  let span: RawFrames | null = null;
  for (const range of ranges) {
    if (span === null) {
      span = { ...range };
      continue;
    }
    if ((compareRawEventIds(range.first, span.first) ?? 0) < 0) span.first = range.first;
    if ((compareRawEventIds(range.last, span.last) ?? 0) > 0) span.last = range.last;
  }
  return span;
}

function field(record: unknown, key: string): unknown {
  return typeof record === "object" && record !== null
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

function text(record: unknown, key: string): string | null {
  const value = field(record, key);
  return typeof value === "string" ? value : null;
}

function sessionOf(record: unknown): string | null {
  return text(record, "providerSessionId");
}

function fieldsOf(record: unknown): Omit<RawFrameView, "rawEventId" | "sequence" | "sequences"> {
  const id = field(record, "jsonRpcId");
  return {
    provider: text(record, "provider"),
    providerSessionId: sessionOf(record),
    direction: text(record, "direction"),
    messageKind: text(record, "messageKind"),
    method: text(record, "method"),
    jsonRpcId: typeof id === "string" || typeof id === "number" ? id : null,
    payload: field(record, "payload") ?? null,
    observedAt: text(record, "observedAt"),
  };
}
