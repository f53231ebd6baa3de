/** A stale `expectedVersion`: someone else appended to the stream first. Retry from fresh state. */
export class ConcurrencyError extends Error {
  override readonly name = "ConcurrencyError";
  readonly streamId: string;
  readonly expected: number;
  readonly actual: number;

  constructor(streamId: string, expected: number, actual: number) {
    super(`stream ${streamId}: expected version ${expected}, found ${actual}`);
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A subscriber fell more than `bufferSize` events behind. Its iterator ends with this error; the
 * client should reset from a fresh snapshot (S2) rather than try to catch up.
 */
export class SubscriberOverflow extends Error {
  override readonly name = "SubscriberOverflow";
  readonly bufferSize: number;
  /** Last sequence the subscriber was given; 0 if none. */
  readonly lastDeliveredSequence: number;

  constructor(bufferSize: number, lastDeliveredSequence: number) {
    super(`subscriber fell more than ${bufferSize} events behind`);
    this.bufferSize = bufferSize;
    this.lastDeliveredSequence = lastDeliveredSequence;
  }
}

/** An operation on a store after `close()`. */
export class StoreClosedError extends Error {
  override readonly name = "StoreClosedError";

  constructor() {
    super("event store is closed");
  }
}

/**
 * A fenced append (see `AppendOptions.fence`) whose writer no longer holds the runtime lease:
 * another instance took the thread over. Nothing was appended; the writer must stop its run.
 */
export class LeaseFenceError extends Error {
  override readonly name = "LeaseFenceError";
  readonly lease: string;
  readonly owner: string;

  constructor(lease: string, owner: string, holder: string | null) {
    super(
      `append refused: instance ${owner} no longer holds the runtime lease of ${lease}` +
        (holder === null ? " (it was released)" : ` (instance ${holder} does)`),
    );
    this.lease = lease;
    this.owner = owner;
  }
}

/** Input the store refuses before queueing it (empty batch, unknown table, bad version…). */
export class InvalidAppendError extends Error {
  override readonly name = "InvalidAppendError";
}

/**
 * B3: a command id already answered another procedure or payload. Nothing was appended; the
 * caller should send a fresh command id (or the original request, to get its receipt again).
 */
export class ReceiptConflictError extends Error {
  override readonly name = "ReceiptConflictError";
  readonly commandId: string;
  /** The procedure the id first answered. */
  readonly procedure: string;

  constructor(commandId: string, procedure: string, reason: "procedure" | "payload") {
    super(
      reason === "procedure"
        ? `command id ${commandId} was already used by ${procedure || "another command"}; send a new command id`
        : `command id ${commandId} was already used by ${procedure || "a command"} with a different payload; send a new command id`,
    );
    this.commandId = commandId;
    this.procedure = procedure;
  }
}

/**
 * Issue 35: the store could not be reached or refused to write (a lost database connection, a
 * server restarting, a data file deleted or damaged). Nothing of the failed operation is
 * acknowledged; `cause` keeps the driver's error, the message says what happened in words.
 */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";

  constructor(why: string, options?: { cause?: unknown }) {
    super(`the event store is unavailable: ${why}`, options);
  }
}
