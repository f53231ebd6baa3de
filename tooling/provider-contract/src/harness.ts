import type { ProviderAdapter } from "@skein/domain/provider";

/**
 * One scripted model reply, in provider-neutral terms. Each harness translates it into its own
 * fake model server's reply format; replies answer successive model requests in order.
 */
export type ContractReply =
  | { kind: "text"; text: string }
  /**
   * Text streamed as `chunks`, `delayMs` apart, so a test can act while the turn is still
   * streaming. Harnesses whose fake splits text uniformly may re-chunk it to a similar count.
   */
  | { kind: "slow-text"; chunks: readonly string[]; delayMs: number }
  /**
   * A call of the provider's own shell tool running `command`. The contract only uses commands
   * that write files, so the provider asks for approval in `approval-required` mode.
   */
  | { kind: "command"; command: string }
  /** The model endpoint answers with this HTTP status and must not be retried by the client. */
  | { kind: "http-error"; status: number; message: string };

/**
 * What the model saw, normalized so tests stay provider-agnostic: user and assistant text parts
 * in order (one entry per text part or block), tool results as `tool`. System/developer prompts
 * and text the runtime itself injects (environment context, reminders) are left out.
 */
export type ConversationMessage = { role: "user" | "assistant" | "tool"; text: string };

/**
 * An adapter wired to a scripted fake model, with a private working directory. The contract
 * creates one per test and opens its own sessions on `adapter`.
 */
export interface ProviderContractHarness {
  readonly adapter: ProviderAdapter;
  /** Working directory for sessions and threads; the contract writes marker files here. */
  readonly cwd: string;
  /** Queues replies for the next conversation requests, after any already queued. */
  script(...replies: ContractReply[]): void;
  /** Every conversation request the fake model received, in arrival order. */
  recordedConversationRequests(): ConversationMessage[][];
  /** Removes what the harness made (server, temp dirs); the contract closes its own sessions. */
  dispose(): Promise<void>;
}

export type ProviderContractHarnessFactory = () => Promise<ProviderContractHarness>;
