import { setTimeout as sleep } from "node:timers/promises";
import type { RunProgress } from "@skein/domain";
import {
  ProviderFailureError,
  providerDisplayName,
  type RuntimeEvent,
} from "@skein/domain/provider";

type Notice = Omit<RunProgress, "since">;
type Retrying = Extract<RuntimeEvent, { type: "model.retrying" }>;

/** The runtime kept retrying a model it cannot reach past the bound; Skein stopped the turn. */
export class ModelUnreachableError extends ProviderFailureError {
  constructor(message: string) {
    super({ kind: "network", message });
    this.name = "ModelUnreachableError";
  }
}

const GAVE_UP = Symbol("gave-up");

/** Events that show the model answered: the turn is moving again. */
function isOutput(event: RuntimeEvent): boolean {
  switch (event.type) {
    case "item.started":
    case "item.completed":
      return event.kind !== "user_message";
    case "item.delta":
    case "plan.updated":
    case "request.opened":
    case "usage":
      return true;
    default:
      return false;
  }
}

/**
 * B15: watches one turn for a runtime retrying a model it cannot reach. Each retry is shown on
 * the run as a live notice ("Codex cannot reach the model: retry 2 of 5"), cleared when output
 * resumes. Once retries have gone on for `boundMs` with no output between, the turn is stopped
 * (`giveUp`) and fails with the cause; a turn the runtime itself fails after retrying says so.
 * Either way `unreachable` tells the run loop that another attempt would only retry again.
 */
export class ModelReachWatch {
  private retryingSince: number | null = null;
  private last: Retrying | null = null;

  /** The turn ended while its runtime was still retrying: another attempt would only retry. */
  get unreachable(): boolean {
    return this.retryingSince !== null;
  }

  constructor(
    private readonly options: {
      provider: string;
      boundMs: number;
      note: (notice: Notice | null) => Promise<void>;
      giveUp: () => Promise<void>;
      clock?: () => number;
    },
  ) {}

  async *watch(source: AsyncIterable<RuntimeEvent>): AsyncGenerator<RuntimeEvent> {
    const iterator = source[Symbol.asyncIterator]();
    let pending = iterator.next();
    try {
      for (;;) {
        const next = await this.nextOrGiveUp(pending);
        if (next === GAVE_UP) {
          await this.options.giveUp();
          throw new ModelUnreachableError(this.gaveUpText());
        }
        if (next.done) return;
        yield await this.see(next.value);
        pending = iterator.next();
      }
    } finally {
      // Not awaited: a generator's return() waits behind a pending next() that may never settle.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }

  private async nextOrGiveUp(
    pending: Promise<IteratorResult<RuntimeEvent>>,
  ): Promise<IteratorResult<RuntimeEvent> | typeof GAVE_UP> {
    if (this.retryingSince === null) return pending;
    const left = this.retryingSince + this.options.boundMs - this.now();
    if (left <= 0) return GAVE_UP;
    const timer = new AbortController();
    const bound = sleep(left, GAVE_UP, { signal: timer.signal, ref: false }).catch(() => null);
    const next = await Promise.race([pending, bound]);
    timer.abort();
    return next === null ? this.nextOrGiveUp(pending) : next;
  }

  private async see(event: RuntimeEvent): Promise<RuntimeEvent> {
    if (event.type === "model.retrying") {
      this.last = event;
      this.retryingSince ??= this.now();
      await this.options.note(this.notice(event));
      return event;
    }
    if (this.retryingSince !== null && isOutput(event)) {
      this.retryingSince = null;
      await this.options.note(null);
    }
    if (event.type === "turn.completed" && event.status === "failed" && this.unreachable) {
      const spent = this.spentText(event.error);
      return { ...event, error: spent, failure: { kind: "network", message: spent } };
    }
    return event;
  }

  private notice(event: Retrying): Notice {
    const count =
      event.attempt !== null && event.maxAttempts !== null
        ? `retry ${event.attempt} of ${event.maxAttempts}`
        : event.attempt !== null
          ? `retry ${event.attempt}`
          : "retrying";
    const cause = event.cause.trim();
    return {
      kind: "model_unreachable",
      text: `${this.name} cannot reach the model: ${count}${cause ? ` (${cause})` : ""}`,
      attempt: event.attempt,
      maxAttempts: event.maxAttempts,
      cause,
    };
  }

  private gaveUpText(): string {
    const seconds = Math.round(this.options.boundMs / 100) / 10;
    return `${this.name} could not reach the model: still retrying after ${seconds} s, so Skein stopped the turn (last cause: ${this.lastCause()})`;
  }

  private spentText(error: string | undefined): string {
    const said = error?.trim() ? `: ${error.trim()}` : "";
    return `${this.name} could not reach the model and its retries are spent (last cause: ${this.lastCause()})${said}`;
  }

  private lastCause(): string {
    return this.last?.cause.trim() || "no cause given";
  }

  private get name(): string {
    return providerDisplayName(this.options.provider);
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
