import { endSpan, tracer } from "../../tracing/spans.ts";
import { createHash } from "node:crypto";
import {
  type EventStore,
  type ReceiptBinding,
  ReceiptConflictError,
  receiptConflict,
  type StoredReceipt,
} from "@skein/db";
import { ConflictError, type DomainEvent, type IdSource, isDomainError } from "@skein/domain";
import { KeyedQueue } from "@skein/concurrency";
import type { Logger } from "../logger.ts";
import { EffectClaims } from "./effect-claims.ts";
import { NOTIFY_RECORD_PREFIX } from "../../notify/push-subscriptions.ts";

/** The mutations that take a `commandId`, named as the API names them. */
export type CommandProcedure =
  | "project.create"
  | "project.updateSettings"
  | "project.delete"
  | "thread.create"
  | "thread.sendMessage"
  | "thread.bringBackCode"
  | "thread.fork"
  | "thread.fanOut"
  | "thread.pickWinner"
  | "thread.steer"
  | "thread.interrupt"
  | "thread.retryRun"
  | "thread.resumeAfterUsageLimit"
  | "thread.editQueued"
  | "thread.reorderQueue"
  | "thread.withdrawQueued"
  | "thread.compact"
  | "thread.rollback"
  | "thread.archive"
  | "thread.unarchive"
  | "thread.delete"
  | "thread.promote"
  | "thread.updateSettings"
  | "thread.import"
  | "thread.adopt"
  | "request.respond"
  | "handoff.regenerate"
  | "handoff.edit"
  | "review.revert"
  | "git.commit"
  | "git.push"
  | "pr.open"
  | "pr.sendFeedback"
  | "pr.merge";

/**
 * What the append that answers a command carries (S4, B3). Without a command id nothing can
 * replay the answer, so nothing is bound (the store binds only a command id's receipt).
 */
export type ReceiptOptions = { commandId?: string; binding?: ReceiptBinding; receipt: unknown };
/** A command's answer minus its sequence, or how to build it from the decided events. */
export type Answer = object | ((events: readonly DomainEvent[]) => object);

/** Handed to a command's body: how it binds its answering append and records its intent. */
export type CommandContext = {
  readonly commandId: string | undefined;
  /** Options for the one append that answers the command; `result` is its answer minus sequence. */
  answer(result: Answer): ReceiptOptions;
  /**
   * B3: records what the command decided before its first outside effect. A command resumed
   * after a crash (or retried after a failure mid-way) gets back what was recorded then, so it
   * finishes the same decision instead of making a new one.
   */
  intend<D>(decision: D): Promise<D>;
  /**
   * The decision an earlier attempt under this command id recorded, if one is still open: a
   * command whose effects change what it would decide (a bring-back's files) reads it first.
   */
  recorded<D>(): Promise<D | undefined>;
};

/**
 * How `CommandGate.run` runs a command. `effects`: it has outside effects, so it gets a generated
 * command id when the caller sent none (its intent can then be recorded and a crash mid-way
 * finished on restart). `composite`: it appends nothing under its own id, only its steps do
 * under ids derived from it; the gate binds the id while it runs and stores its answer as a
 * receipt of its own on `streamId` (the stream it is about) once the steps are done.
 */
export type RunOptions = { effects?: boolean; composite?: { streamId: string } };

/** An intent's data: the command as asked, what it decided, and which instance was running it. */
type Intended = { input: Record<string, unknown>; decision: unknown; owner: string };
type Result = { sequence: number };

/** The payload a command id is bound to: the input without its id. */
export function bindingOf(procedure: CommandProcedure, input: object): ReceiptBinding {
  const { commandId: _id, ...payload } = input as Record<string, unknown>;
  const hash = createHash("sha256").update(canonicalJson(payload)).digest("hex");
  return { procedure, payloadHash: hash };
}

/** JSON with object keys sorted and `undefined` members dropped, so equal inputs hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** B3: a used command id answers only the procedure and payload it first answered. */
function refuseOtherBinding(commandId: string, known: ReceiptBinding, asked: ReceiptBinding) {
  const conflict = receiptConflict(commandId, known, asked);
  if (conflict) throw new ConflictError(conflict.message);
}

/**
 * S4/B3 at the orchestrator's entry: a command id's receipt is checked before anything else
 * happens, commands under one id run one at a time in this process, and a replay returns the
 * stored answer without touching files, worktrees or provider threads. Another procedure or
 * payload under a used id is CONFLICT naming the first.
 */
export class CommandGate {
  private readonly queue = new KeyedQueue();
  /**
   * Issue 35: exclusive claims across instances. Commands with outside effects take theirs
   * here; other effects (a pull request, a notification) take one with `claims.exclusive`.
   */
  readonly claims: EffectClaims;

  constructor(
    private readonly store: EventStore,
    private readonly ids: IdSource,
    private readonly log: Logger,
    /** This instance's id: a restart finishes only the intents its previous incarnation left. */
    private readonly owner: string,
    claimTtlMs = 30_000,
  ) {
    this.claims = new EffectClaims({ leases: store.runtimeLeases, owner, ttlMs: claimTtlMs });
  }

  /** Runs `body` once per command id (see `RunOptions`). */
  run<T extends Result>(
    procedure: CommandProcedure,
    input: { commandId?: string },
    body: (context: CommandContext) => Promise<T>,
    options: RunOptions = {},
  ): Promise<T> {
    // Active while the command runs, so the spans of its appends (decide+append) nest under it.
    const attributes = { "skein.procedure": procedure };
    return tracer.startActiveSpan(`command ${procedure}`, { attributes }, async (span) => {
      try {
        const result = await this.runOnce(procedure, input, body, options);
        endSpan(span);
        return result;
      } catch (error) {
        endSpan(span, error);
        throw error;
      }
    });
  }

  private runOnce<T extends Result>(
    procedure: CommandProcedure,
    input: { commandId?: string },
    body: (context: CommandContext) => Promise<T>,
    options: RunOptions,
  ): Promise<T> {
    const commandId = input.commandId ?? (options.effects ? this.ids.next("command") : undefined);
    if (commandId === undefined) {
      // No id, no replay: the payload hash (canonical JSON and SHA-256 of the whole input, on
      // every message's way to its run) would bind nothing.
      return body({
        commandId,
        answer: (result) => ({ receipt: result }),
        intend: async (decision) => decision,
        recorded: async () => undefined,
      });
    }
    // Issue 35: a command with outside effects claims its id in the store first, so of two
    // instances sent it at once only one performs them; the other waits, then finds the receipt.
    const once = <R>(work: () => Promise<R>) =>
      options.effects ? this.claims.exclusive(`command:${commandId}`, work) : work();
    const binding = bindingOf(procedure, input);
    return this.queue.run(commandId, () =>
      once(() => this.applyOnce(input, body, commandId, binding, options.composite)),
    );
  }

  private async applyOnce<T extends Result>(
    input: { commandId?: string },
    body: (context: CommandContext) => Promise<T>,
    commandId: string,
    binding: ReceiptBinding,
    composite: RunOptions["composite"],
  ): Promise<T> {
    const stored = await this.store.findReceipt(commandId);
    if (stored) {
      refuseOtherBinding(commandId, stored, binding);
      return replayOf(stored) as T;
    }
    const pending = await this.store.findIntent(commandId);
    if (pending) refuseOtherBinding(commandId, pending, binding);
    const intentOf = (decision: unknown): Intended => ({
      input: { ...input, commandId },
      decision,
      owner: this.owner,
    });
    // A composite's own id holds nothing until its last step is done: its intent binds the id
    // meanwhile, so a retry with other input is refused even after a crash mid-way.
    if (composite && !pending) {
      await this.store.recordIntent({ commandId, ...binding, data: intentOf(null) });
    }
    const context: CommandContext = {
      commandId,
      answer: (result) => ({ commandId, binding, receipt: result }),
      intend: async <D>(decision: D) => {
        if (await this.store.recordIntent({ commandId, ...binding, data: intentOf(decision) })) {
          return decision;
        }
        const recorded = await this.store.findIntent(commandId);
        return ((recorded?.data as Intended | undefined)?.decision ?? decision) as D;
      },
      recorded: async <D>() => {
        const recorded = await this.store.findIntent(commandId);
        return (recorded?.data as Intended | undefined)?.decision as D | undefined;
      },
    };
    try {
      const result = await body(context);
      return composite ? await this.answerComposite(commandId, binding, composite, result) : result;
    } catch (error) {
      // A refusal ends the command: nothing is left to finish. Anything else (a crash-like
      // failure mid-way) keeps the intent, so a retry or the next start finishes the decision.
      if (isDomainError(error)) await this.store.clearIntent(commandId);
      throw error;
    }
  }

  /**
   * Stores a composite's answer under its own id (which clears its intent) and answers as its
   * replay will: the stored result at the last sequence its steps wrote or replayed.
   */
  private async answerComposite<T extends Result>(
    commandId: string,
    binding: ReceiptBinding,
    composite: NonNullable<RunOptions["composite"]>,
    result: T,
  ): Promise<T> {
    const { sequence, ...answer } = result;
    try {
      const stored = await this.store.recordReceipt({
        commandId,
        ...binding,
        streamId: composite.streamId,
        lastSequence: sequence,
        receipt: answer,
      });
      return replayOf(stored) as T;
    } catch (error) {
      if (error instanceof ReceiptConflictError) throw new ConflictError(error.message);
      throw error;
    }
  }

  /**
   * After a restart: every command whose intent is still recorded is run again under its id,
   * finishing what it decided (each at most once per start; a failure is logged and left).
   */
  async resumeIntents(
    resume: (procedure: CommandProcedure, input: Record<string, unknown>) => Promise<unknown>,
  ): Promise<void> {
    for (const intent of await this.store.listIntents()) {
      // B20's delivery and device records share the intent rows; they are no unfinished command.
      if (intent.procedure.startsWith(NOTIFY_RECORD_PREFIX)) continue;
      const data = intent.data as Intended | null;
      // Another live instance may be running it right now; a retry by its client finishes it.
      if (data?.owner !== undefined && data.owner !== this.owner) continue;
      try {
        if (!data?.input) throw new Error("the intent has no recorded input");
        await resume(intent.procedure as CommandProcedure, data.input);
        this.log.info(
          { commandId: intent.commandId, procedure: intent.procedure },
          "interrupted command finished after restart",
        );
      } catch (error) {
        this.log.error(
          { commandId: intent.commandId, procedure: intent.procedure, err: error },
          "interrupted command could not be finished after restart",
        );
        if (isDomainError(error) || !data?.input) await this.store.clearIntent(intent.commandId);
      }
    }
  }
}

/** The answer a command gave, as it gave it: its stored result plus its append's sequence. */
function replayOf(stored: StoredReceipt): Result {
  const result =
    stored.receipt !== null && typeof stored.receipt === "object" ? stored.receipt : {};
  return { ...result, sequence: stored.lastSequence };
}
