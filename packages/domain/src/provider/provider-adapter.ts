import type { ProviderCapabilityFlags } from "./capabilities.ts";
import type { ProviderId } from "./providers.ts";
import type { RuntimeEvent, RuntimeRequestAnswer } from "./runtime-events.ts";

/** Version of the adapter contract below; bump on any breaking change to it. */
export const PROVIDER_ADAPTER_VERSION = 1 as const;

export type { ProviderId } from "./providers.ts";

/** Skein's runtime mode (E1), which adapters map to their approval/sandbox settings. */
export type AdapterRuntimeMode = "approval-required" | "full-access";

/** One diagnostic frame for the raw provider log (E18). */
export type RawFrame = {
  provider: ProviderId;
  providerSessionId: string;
  direction: "incoming" | "outgoing";
  messageKind: "request" | "response" | "notification" | "error";
  method: string | null;
  jsonRpcId: string | number | null;
  payload: unknown;
  /** ISO-8601: when the adapter saw (or sent) the frame; set by the adapter kit's binding. */
  observedAt?: string;
};

/** Where adapters write raw frames: bounded rotating files, never the database (E18, S3). */
export interface RawEventSink {
  /** Records one frame and returns its `rawEventId` (a pointer into the log files). */
  record(frame: RawFrame): string;
}

/** A tool the app owns and exposes to the provider (e.g. `skein_delegate`, T9). */
export type AppToolDefinition = {
  name: string;
  description: string;
  /** JSON schema of the tool's input. */
  inputSchema: Record<string, unknown>;
};

/** Called by the adapter when the provider calls an app-owned tool; resolves with its output. */
export type AppToolHandler = (call: {
  toolName: string;
  input: unknown;
  callRef: string;
  nativeThreadRef: string;
}) => Promise<{ output: string; isError?: boolean }>;

/** A completed native turn as the orchestrator knows it (T12: provider-agnostic history). */
export type NativeTurnRecord = {
  /** Strong native id, or null where the provider only has ordinals (E10). */
  nativeTurnRef: string | null;
  /** 1-based position among the thread's native turns. */
  ordinal: number;
  status: "completed" | "interrupted" | "failed" | "cancelled" | "running" | "pending";
};

/**
 * A point in a native thread: "everything up to and including this turn". The orchestrator
 * passes the whole known turn history so the adapter can apply its own boundary rules (C1–C3).
 */
export type NativeTurnBoundary = {
  turn: NativeTurnRecord;
  history: NativeTurnRecord[];
};

export type ThreadSettings = {
  cwd: string;
  model?: string | null;
  runtimeMode: AdapterRuntimeMode;
  /** App-owned tools to expose on this thread, when `appOwnedTools` is supported. */
  tools?: AppToolDefinition[];
  /**
   * The thread's own environment variables (issue 26: its `PORT`). An adapter with
   * `threadEnv` gives them to this thread's commands itself; for any other they are the runtime
   * process's, and the orchestrator opens one runtime per distinct environment.
   */
  env?: Readonly<Record<string, string>>;
};

/**
 * User input for a turn; `context` is a materialized handoff injected ahead of the message.
 * `interactionMode` "plan" asks the provider to propose a plan instead of acting (B5): Codex's
 * plan collaboration mode, Claude's `plan` permission mode; absent means "default". `effort` is
 * the reasoning effort for this turn (null/absent: the provider's default).
 */
export type TurnInput = {
  text: string;
  context?: { handoffId: string; text: string } | null;
  /**
   * P6: compact the thread's context now instead of answering `text` (Codex
   * `thread/compact/start`, Claude `/compact`); the turn reports a `compaction` item.
   */
  compact?: boolean;
  /**
   * E16: files sent with the message, stored locally by the app; only types the adapter lists
   * in `attachmentTypes` ever arrive here.
   */
  attachments?: TurnAttachment[];
  interactionMode?: "default" | "plan";
  effort?: string | null;
};

/** A file that goes with a message: its type was sniffed from its bytes by the app. */
export type TurnAttachment = { name: string; mimeType: string; path: string };

/** A running turn: its normalized events, ending with exactly one `turn.completed`. */
export interface TurnHandle {
  readonly events: AsyncIterable<RuntimeEvent>;
  /** Resolves once the turn has started natively, with the native turn ref when there is one. */
  readonly started: Promise<{ nativeTurnRef: string | null }>;
}

export type NativeHistoryTurn = {
  nativeTurnRef: string | null;
  ordinal: number;
  userText: string | null;
  assistantText: string | null;
};

/**
 * B6: one of the person's own native threads (a Codex thread, a Claude session) as the provider
 * lists it, for adopting it into Skein (E9 "promoted").
 */
export type NativeSessionSummary = {
  nativeThreadRef: string;
  /** The provider's title for it: a name, a summary or its first prompt. */
  title: string;
  /** The folder it ran in. */
  cwd: string;
  createdAt: string | null;
  updatedAt: string | null;
};

/** A native thread read for adoption: what it is and its turns, oldest first. */
export type NativeSessionRead = {
  session: NativeSessionSummary;
  turns: NativeHistoryTurn[];
};

/** One model a provider offers, with the reasoning-effort levels it takes (if any). */
export type ProviderModel = {
  /** What Skein sends as the model (`thread.create`/`sendMessage` `model`). */
  id: string;
  displayName: string;
  description: string;
  isDefault: boolean;
  efforts: string[];
  defaultEffort: string | null;
};

/**
 * A live runtime (a Codex app-server process, a set of Claude SDK sessions). Handles vanish on
 * restart, idle reaping or crashes; the orchestrator rebuilds them from persisted refs (E8, R2),
 * so nothing here may be the only copy of a persisted value.
 */
export interface ProviderSessionHandle {
  /** App-assigned ProviderSession id this handle serves. */
  readonly providerSessionId: string;
  readonly provider: ProviderId;
  readonly capabilities: ProviderCapabilityFlags;
  /** Runtime version string (e.g. the binary's version), for status and diagnostics. */
  readonly runtimeVersion: string | null;

  /** Starts a new native thread; returns its native ref. */
  startThread(settings: ThreadSettings): Promise<{ nativeThreadRef: string }>;
  /** Reattaches to an existing native thread (after a restart). Needs `resume`. */
  resumeThread(
    nativeThreadRef: string,
    settings: ThreadSettings,
  ): Promise<{ nativeThreadRef: string }>;
  /**
   * Forks a native thread at a turn boundary (inclusive), leaving the source untouched. Needs
   * `nativeFork` (and `forkAtTurn` unless the boundary is the latest turn). Fails with
   * CapabilityUnsupportedError, before any provider call, where the boundary cannot hold.
   */
  forkThread(
    source: { nativeThreadRef: string; at: NativeTurnBoundary | null },
    settings: ThreadSettings,
  ): Promise<{ nativeThreadRef: string }>;
  /** Drops every turn after `keep` (null: all turns) from the native thread. Needs `rollback`. */
  rollbackThread(
    nativeThreadRef: string,
    keep: NativeTurnBoundary | null,
  ): Promise<{ removedTurns: number }>;
  /** Reads a thread's native history. Needs `readHistory`. */
  readHistory(nativeThreadRef: string): Promise<NativeHistoryTurn[]>;

  /** Starts a turn. App-owned tool calls during the turn go to `onAppToolCall`. */
  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings; onAppToolCall?: AppToolHandler },
  ): TurnHandle;
  /** Adds input to the running turn. Needs `steer`. */
  steerTurn(nativeThreadRef: string, nativeTurnRef: string | null, text: string): Promise<void>;
  /** Asks the running turn to stop; it then ends with `turn.completed {status: interrupted}`. */
  interruptTurn(nativeThreadRef: string, nativeTurnRef: string | null): Promise<void>;
  /** Answers an open runtime request. Rejects when the request is no longer answerable. */
  respondToRequest(requestRef: string, answer: RuntimeRequestAnswer): Promise<void>;

  /**
   * Optional. Lets go of one native thread's live state (its process, its in-memory history)
   * without stopping the runtime, so another runtime can continue the thread and this one reads
   * it afresh when next asked to resume it. False while that thread's turn runs. Absent: the
   * whole runtime must stop to let go (a Codex thread has one writer until its process exits).
   */
  releaseThread?(nativeThreadRef: string): Promise<boolean>;

  /** True while the underlying process/connection is alive. */
  isAlive(): boolean;
  /**
   * Optional. Requests sent to the runtime and not answered yet (a thread being started or
   * resumed): a runtime with any is in use even when no turn runs, and is not closed as idle.
   */
  requestsInFlight?(): number;
  /** Stops the runtime; running turns end `interrupted`. */
  close(): Promise<void>;
}

/** The one interface both provider adapters implement (versioned; see PROVIDER_ADAPTER_VERSION). */
export interface ProviderAdapter {
  readonly version: typeof PROVIDER_ADAPTER_VERSION;
  readonly provider: ProviderId;
  /**
   * The name a person knows it by, where the domain's list does not have one (a configured ACP
   * agent's `name`, B18). Absent: `providerDisplayName(provider)`.
   */
  readonly displayName?: string;
  /** Static capabilities, known without starting a runtime. */
  readonly capabilities: ProviderCapabilityFlags;
  /**
   * E16: MIME types a message may carry as attachments (absent: none). The app refuses any
   * other with CapabilityUnsupportedError before any provider work.
   */
  readonly attachmentTypes?: readonly string[];
  /**
   * True when the adapter applies `ThreadSettings.env` to each thread's own commands (on
   * start, resume and fork), so one runtime serves threads with different environments (issue
   * 34: a new thread with a PORT of its own then needs no new process). Absent: the environment
   * is the process's, one runtime per distinct environment.
   */
  readonly threadEnv?: boolean;
  /** Opens (spawns/handshakes) a runtime for the given session id. */
  openSession(input: {
    providerSessionId: string;
    cwd: string;
    model?: string | null;
    rawLog?: RawEventSink;
    /** Added to (and overriding) the server's environment for the runtime's process. */
    env?: Readonly<Record<string, string>>;
  }): Promise<ProviderSessionHandle>;
  /**
   * The models the provider offers here (its own catalog, read from the runtime), default first
   * where it says which is. Optional: an adapter without a catalog lists nothing.
   */
  listModels?(): Promise<ProviderModel[]>;
  /**
   * B6: the person's own native threads whose folder is exactly `cwd`, newest first, at most
   * `limit`. Read from the provider's own store (Codex `thread/list` under its `CODEX_HOME`,
   * Claude's project transcripts under its config dir) without running a turn. Needs
   * `adoptSessions`.
   */
  listSessions?(input: { cwd: string; limit: number }): Promise<NativeSessionSummary[]>;
  /**
   * B6: one native thread with its turns, for adopting it; null when the provider has no such
   * thread. Needs `adoptSessions`.
   */
  readSession?(nativeThreadRef: string): Promise<NativeSessionRead | null>;
  /**
   * B15: finds the runtime and reports its version and readiness, authentication included,
   * without running a turn or calling the model.
   */
  status(): Promise<ProviderReadiness>;
}

/** B15: whether a provider can take a message now, and if not, what to do, in words. */
export type ProviderReadiness = {
  found: boolean;
  version: string | null;
  /** True when a message can be sent: the runtime is found and authentication is in place. */
  ready: boolean;
  /** Why it is not ready, with the fix in words (null when ready). */
  lastError: string | null;
  /** Absent: the adapter does not check authentication. */
  auth?: ProviderAuth;
};

export type ProviderAuth = {
  /**
   * `signed-in`: an account or a key the runtime uses was found; `not-required`: the configured
   * model endpoint needs no sign-in; `signed-out`: nothing the runtime would authenticate with;
   * `unknown`: it could not be checked (the runtime did not answer).
   */
  state: "signed-in" | "not-required" | "signed-out" | "unknown";
  /** How, in words ("ChatGPT account a@b.c", "ANTHROPIC_API_KEY"), when signed in. */
  method: string | null;
  /** What to do, in words, when signed out or unknown. */
  fix: string | null;
};
