import type {
  SDKAssistantMessageError,
  SDKMessage,
  SDKResultMessage,
} from "@anthropic-ai/claude-agent-sdk";
import type { ProviderFailure } from "@skein/domain/provider";
import { AsyncQueue } from "@skein/adapter-kit";
import {
  type ClaudeTurnOutcome,
  type ClaudeTurnStatus,
  classifyResult,
  mainThreadEntryUuid,
} from "./turn-outcome.ts";
import { claudeRuntimeGone, claudeTurnFailure } from "./turn-failure.ts";

/** An SDK message with the raw-log id it was recorded under. */
export type SdkEnvelope = {
  message: SDKMessage;
  rawEventId: string | undefined;
  receivedAt: number;
};

/**
 * One user message sent into a live session and everything Claude did in answer, up to its
 * `result`. Messages stream through `messages`; `outcome` settles once, when the turn ends.
 */
export class ClaudeTurn {
  /** The uuid sent with the user message; the CLI echoes it in `user_message_uuids`. */
  readonly userMessageUuid: string;
  private readonly channel = new AsyncQueue<SdkEnvelope>();
  private settle!: (outcome: ClaudeTurnOutcome) => void;
  readonly outcome: Promise<ClaudeTurnOutcome>;
  private settled = false;
  private interruptRequested = false;
  private lastAssistant: string | null = null;
  private lastEntry: string | null = null;
  private readonly assistantUuids: string[] = [];
  /** The error kind the CLI named on its synthetic API-error message, if one came. */
  private sdkError: SDKAssistantMessageError | undefined;
  private readonly listeners = new Set<(envelope: SdkEnvelope) => void>();

  constructor(userMessageUuid: string) {
    this.userMessageUuid = userMessageUuid;
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Every message of this turn, ending after its `result` (or when the process dies). */
  get messages(): AsyncIterable<SdkEnvelope> {
    return this.channel;
  }

  /**
   * Sees each message synchronously as the session receives it, unlike `messages`, so it stays in
   * order with callbacks such as `canUseTool`. Returns an unsubscribe function.
   */
  onMessage(listener: (envelope: SdkEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get isSettled(): boolean {
    return this.settled;
  }

  /** Main-thread assistant message uuids so far, in order. */
  get assistantMessageUuids(): readonly string[] {
    return this.assistantUuids;
  }

  markInterruptRequested(): void {
    this.interruptRequested = true;
  }

  get isInterruptRequested(): boolean {
    return this.interruptRequested;
  }

  /** @internal Routed here by the session while this turn is current. */
  deliver(envelope: SdkEnvelope): void {
    if (this.settled) return;
    const { message } = envelope;
    if (message.type === "assistant" && message.parent_tool_use_id === null && message.error) {
      this.sdkError = message.error;
    }
    const entry = mainThreadEntryUuid(envelope.message);
    if (entry !== null) {
      this.lastEntry = entry;
      if (envelope.message.type === "assistant") {
        this.lastAssistant = entry;
        this.assistantUuids.push(entry);
      }
    }
    this.channel.push(envelope);
    for (const listener of this.listeners) listener(envelope);
  }

  /** @internal */
  complete(result: SDKResultMessage): void {
    const { status, error } = classifyResult(result, this.interruptRequested);
    const failure = status === "failed" ? claudeTurnFailure(error ?? "", this.sdkError) : null;
    this.finish(status, error, failure, result);
  }

  /** @internal Ends the turn without a result (process death, session close). */
  abort(status: ClaudeTurnStatus, error: string | null): void {
    const ended = this.interruptRequested ? "interrupted" : status;
    this.finish(ended, error, ended === "failed" ? claudeRuntimeGone(error) : null, null);
  }

  private finish(
    status: ClaudeTurnStatus,
    error: string | null,
    failure: ProviderFailure | null,
    result: SDKResultMessage | null,
  ) {
    if (this.settled) return;
    this.settled = true;
    this.channel.end();
    this.settle({
      status,
      error,
      failure,
      result,
      lastAssistantUuid: this.lastAssistant,
      lastEntryUuid: this.lastEntry,
    });
  }
}
