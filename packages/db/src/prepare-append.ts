import { InvalidAppendError } from "./errors.ts";
import type { AppendFence, AppendOptions, ExpectedVersion, NewEvent } from "./event-store.ts";
import { isProjectionTable } from "./projection-tables.ts";
import type { ProjectionTable, ProjectionWrite } from "./projection-types.ts";
import { type ThreadListing, threadListing } from "./thread-listing.ts";

/**
 * `rawEventId`: the raw provider frame (E18) the event came from, if its data names one; stored
 * in its own indexed column so a frame leads to the sequences it produced (B8).
 */
export type PreparedEvent = { type: string; json: string; rawEventId: string | null };

export type PreparedWrite =
  | {
      op: "put";
      table: ProjectionTable;
      id: string;
      threadId: string | null;
      sortKey: number;
      runOrdinal: number | null;
      status: string | null;
      json: string;
      /** `threads` rows: the listing columns their data gives (null for other tables). */
      listing: ThreadListing | null;
    }
  | { op: "delete"; table: ProjectionTable; id: string };

/** An append validated and serialized up front, so the batch transaction only runs SQL. */
export type PreparedAppend = {
  streamId: string;
  /** `null` = any version. */
  expected: number | null;
  events: PreparedEvent[];
  commandId: string | null;
  projections: PreparedWrite[];
  receiptJson: string;
  /** "" when the append carries no binding (then any retry under its id replays it). */
  procedure: string;
  payloadHash: string;
  fence: AppendFence | null;
};

/**
 * Validates and serializes an append on the caller's tick: a bad input rejects that append alone
 * instead of failing the whole group-commit transaction it would have joined.
 */
export function prepareAppend(
  streamId: string,
  expectedVersion: ExpectedVersion,
  events: readonly NewEvent[],
  options: AppendOptions,
): PreparedAppend {
  if (typeof streamId !== "string" || streamId === "") {
    throw new InvalidAppendError("streamId must be a non-empty string");
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new InvalidAppendError(`append to ${streamId}: at least one event is required`);
  }
  const commandId = options.commandId ?? null;
  if (commandId !== null && (typeof commandId !== "string" || commandId === "")) {
    throw new InvalidAppendError(`append to ${streamId}: commandId must be a non-empty string`);
  }
  return {
    streamId,
    expected: parseExpectedVersion(streamId, expectedVersion),
    events: events.map((event, index) => prepareEvent(streamId, event, index)),
    commandId,
    projections: (options.projections ?? []).map(prepareWrite),
    receiptJson: toJson(options.receipt, `receipt of ${streamId}`),
    procedure: bindingPart(streamId, options.binding?.procedure, "procedure"),
    payloadHash: bindingPart(streamId, options.binding?.payloadHash, "payloadHash"),
    fence: prepareFence(streamId, options.fence),
  };
}

function prepareFence(streamId: string, fence: AppendFence | undefined): AppendFence | null {
  if (fence === undefined) return null;
  return {
    lease: shortText(streamId, fence?.lease, "fence.lease"),
    owner: shortText(streamId, fence?.owner, "fence.owner"),
  };
}

function bindingPart(streamId: string, value: unknown, name: string): string {
  return value === undefined ? "" : shortText(streamId, value, `binding.${name}`);
}

function shortText(streamId: string, value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > 200) {
    throw new InvalidAppendError(
      `append to ${streamId}: ${name} must be a non-empty string of at most 200 characters`,
    );
  }
  return value;
}

function parseExpectedVersion(streamId: string, expected: ExpectedVersion): number | null {
  if (expected === "any" || expected === -1) return null;
  if (typeof expected === "number" && Number.isSafeInteger(expected) && expected >= 0) {
    return expected;
  }
  throw new InvalidAppendError(
    `append to ${streamId}: expectedVersion must be a non-negative integer or "any", got ${String(expected)}`,
  );
}

function prepareEvent(streamId: string, event: NewEvent, index: number): PreparedEvent {
  if (typeof event?.type !== "string" || event.type === "") {
    throw new InvalidAppendError(`append to ${streamId}: events[${index}].type must be a string`);
  }
  return {
    type: event.type,
    json: toJson(event.data, `events[${index}].data`),
    rawEventId: rawEventIdOf(event.data),
  };
}

function rawEventIdOf(data: unknown): string | null {
  if (typeof data !== "object" || data === null || !("rawEventId" in data)) return null;
  const id = data.rawEventId;
  return typeof id === "string" && id !== "" ? id : null;
}

function prepareWrite(write: ProjectionWrite, index: number): PreparedWrite {
  const where = `projections[${index}]`;
  if (!isProjectionTable(write.table)) {
    throw new InvalidAppendError(`${where}: unknown projection table ${String(write.table)}`);
  }
  if (typeof write.id !== "string" || write.id === "") {
    throw new InvalidAppendError(`${where}: id must be a non-empty string`);
  }
  if (write.op === "delete") return { op: "delete", table: write.table, id: write.id };
  if (write.op !== "put") {
    throw new InvalidAppendError(`${where}: op must be "put" or "delete"`);
  }
  if (!Number.isSafeInteger(write.sortKey)) {
    throw new InvalidAppendError(`${where}: sortKey must be an integer`);
  }
  if (write.runOrdinal !== null && !Number.isSafeInteger(write.runOrdinal)) {
    throw new InvalidAppendError(`${where}: runOrdinal must be an integer or null`);
  }
  return {
    op: "put",
    table: write.table,
    id: write.id,
    threadId: write.threadId ?? null,
    sortKey: write.sortKey,
    runOrdinal: write.runOrdinal ?? null,
    status: write.status ?? null,
    json: toJson(write.data, `${where}.data`),
    listing: write.table === "threads" ? threadListing(write.data) : null,
  };
}

function toJson(value: unknown, where: string): string {
  try {
    // JSON.stringify(undefined) is undefined; store it as null like any absent value.
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    throw new InvalidAppendError(`${where} is not JSON-serializable: ${String(error)}`);
  }
}
