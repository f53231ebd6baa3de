import { z } from "zod";
import { type AggregateKind, aggregateKindOfStream, evolve, initialStateFor } from "../decide.ts";
import { IsoTimestamp } from "../entities/common.ts";
import { ValidationError } from "../errors.ts";
import { type DomainEvent, ProjectEvent, SessionEvent, ThreadEvent } from "../events.ts";
import { ThreadId } from "../ids.ts";
import { projectEvent } from "../projections/project-event.ts";
import type { ProjectionWrite } from "../projections/projection-write.ts";

export const THREAD_EXPORT_FORMAT = "skein.thread-export";

/** Bounds a document must stay within: imports are read whole, so they are capped. */
export const THREAD_EXPORT_LIMITS = { streams: 2_000, eventsPerStream: 200_000 } as const;

const ExportedEvent = z.object({
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()),
});

export const ThreadExportStream = z.object({
  streamId: z
    .string()
    .regex(
      /^(thread|project|session)-[A-Za-z0-9_-]{1,120}$/,
      "not a thread, project or session stream",
    ),
  events: z.array(ExportedEvent).min(1).max(THREAD_EXPORT_LIMITS.eventsPerStream),
});
export type ThreadExportStream = z.infer<typeof ThreadExportStream>;

/**
 * One thread as a file: every event of its own stream, of the threads it inherits from
 * (forks of forks up to the root), of its project and of the provider sessions its runs used.
 * Transfers, handoffs and checkpoint refs are events of those streams, so they travel too; the
 * checkpoints' git objects stay in the data dir they were taken in.
 */
export const ThreadExportDocument = z.object({
  format: z.literal(THREAD_EXPORT_FORMAT),
  version: z.literal(1),
  exportedAt: IsoTimestamp,
  threadId: ThreadId,
  /** Dependencies first: project, sessions, source threads from the root, the thread last. */
  streams: z.array(ThreadExportStream).min(1).max(THREAD_EXPORT_LIMITS.streams),
});
export type ThreadExportDocument = z.infer<typeof ThreadExportDocument>;

/** A stream ready to append: its validated events and the projection rows they produce. */
export type PlannedStream = {
  streamId: string;
  events: DomainEvent[];
  projections: ProjectionWrite[];
};

const SCHEMA_BY_KIND: Record<AggregateKind, z.ZodType<DomainEvent>> = {
  thread: ThreadEvent,
  project: ProjectEvent,
  session: SessionEvent,
};

/** The event that opens each kind of stream, and the id it gives the stream's entity. */
const OPENING: Record<AggregateKind, { types: readonly string[]; idOf: (data: never) => unknown }> =
  {
    thread: {
      types: ["ThreadCreated", "ThreadForked"],
      idOf: (data: { thread: { id: string } }) => data.thread.id,
    },
    project: {
      types: ["ProjectCreated"],
      idOf: (data: { project: { id: string } }) => data.project.id,
    },
    session: {
      types: ["ProviderSessionOpened"],
      idOf: (data: { session: { id: string } }) => data.session.id,
    },
  };

/** A stream must begin with its entity's creation, for the entity its id names. */
function checkOpening(streamId: string, kind: AggregateKind, first: DomainEvent): void {
  const opening = OPENING[kind];
  const named = streamId.slice(kind.length + 1);
  if (!opening.types.includes(first.type)) {
    throw new ValidationError(
      `not a valid export: ${where(streamId, 0)}: a ${kind} stream begins with ${opening.types.join(" or ")}, not ${first.type}`,
    );
  }
  if (opening.idOf(first.data as never) !== named) {
    throw new ValidationError(
      `not a valid export: ${where(streamId, 0)}: creates another ${kind} than ${named}`,
    );
  }
}

function where(streamId: string, index: number, path: readonly PropertyKey[] = []): string {
  return [`streams[${streamId}]`, `events[${index}]`, ...path.map(String)].join(".");
}

/**
 * Checks every event against its stream's schema and folds it exactly as the live path does
 * (evolve, then project), so an import writes the rows the exporting store had. Anything that
 * does not fold — an unknown type, a malformed payload, an event out of order — is a
 * ValidationError naming the stream and event, and nothing is planned.
 */
export function planThreadImport(document: ThreadExportDocument): PlannedStream[] {
  const seen = new Set<string>();
  const planned: PlannedStream[] = [];
  for (const stream of document.streams) {
    if (seen.has(stream.streamId)) {
      throw new ValidationError(`stream ${stream.streamId} appears twice in the export`);
    }
    seen.add(stream.streamId);
    const kind = aggregateKindOfStream(stream.streamId);
    const schema = SCHEMA_BY_KIND[kind];
    const state = initialStateFor(kind);
    const events: DomainEvent[] = [];
    const projections: ProjectionWrite[] = [];
    for (const [index, raw] of stream.events.entries()) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          path: where(stream.streamId, index, issue.path),
          message: issue.message,
        }));
        throw new ValidationError(
          `not a valid export: ${issues[0]?.path}: ${issues[0]?.message}`,
          issues,
        );
      }
      if (index === 0) checkOpening(stream.streamId, kind, parsed.data);
      try {
        evolve(state, parsed.data);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ValidationError(
          `not a valid export: ${where(stream.streamId, index)}: ${reason}`,
        );
      }
      events.push(parsed.data);
      projections.push(...projectEvent(state, parsed.data));
    }
    planned.push({
      streamId: stream.streamId,
      events,
      projections: lastWriteOfEachRow(projections),
    });
  }
  if (!seen.has(`thread-${document.threadId}`)) {
    throw new ValidationError(`the export does not hold thread ${document.threadId}'s own stream`);
  }
  return planned;
}

/** A row written many times (a streamed message) ends as its last write; one write is enough. */
function lastWriteOfEachRow(writes: readonly ProjectionWrite[]): ProjectionWrite[] {
  const last = new Map<string, number>();
  for (const [index, write] of writes.entries()) last.set(`${write.table}/${write.id}`, index);
  return writes.filter((write, index) => last.get(`${write.table}/${write.id}`) === index);
}
