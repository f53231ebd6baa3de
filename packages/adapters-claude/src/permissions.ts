import type { PermissionResult, PermissionUpdate } from "@anthropic-ai/claude-agent-sdk";
import type { RuntimeRequestAnswer } from "@skein/domain/provider";
import { askUserAnswers } from "./tool-kinds.ts";

/** One `canUseTool` callback from Claude Code, as Skein sees it. */
export type ToolPermissionRequest = {
  /** The control request id; unique per callback. */
  requestId: string;
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** Set when a subagent (not the main loop) wants the tool. */
  agentId: string | null;
  title: string | null;
  description: string | null;
  blockedPath: string | null;
  decisionReason: string | null;
  /** Rules Claude Code proposes for "always allow"; used by `allow` with `rememberForSession`. */
  suggestions: PermissionUpdate[];
  /** Aborted when Claude Code withdraws the question (interrupt, process exit). */
  signal: AbortSignal;
  /** B8: where the raw log keeps the callback as received (it is no wire frame of its own). */
  rawEventId?: string;
};

export type ToolPermissionDecision =
  | {
      behavior: "allow";
      updatedInput?: Record<string, unknown>;
      /** Also allow matching calls for the rest of this session (never written to settings). */
      rememberForSession?: boolean;
    }
  | { behavior: "deny"; message?: string; interrupt?: boolean };

/** Answers a permission request, possibly much later (the SDK call waits). */
export type PermissionHandler = (request: ToolPermissionRequest) => Promise<ToolPermissionDecision>;

/**
 * The SDK's answer shape. Session-scoped remembering reuses Claude Code's own suggestions with
 * their destination forced to `session`, so nothing lands in the user's settings files.
 */
export function toPermissionResult(
  request: ToolPermissionRequest,
  decision: ToolPermissionDecision,
): PermissionResult {
  if (decision.behavior === "deny") {
    return {
      behavior: "deny",
      message: decision.message ?? "The user declined this tool call.",
      interrupt: decision.interrupt ?? false,
      toolUseID: request.toolUseId,
    };
  }
  const updatedPermissions = decision.rememberForSession
    ? request.suggestions.map((s) => ({ ...s, destination: "session" as const }))
    : undefined;
  return {
    behavior: "allow",
    updatedInput: decision.updatedInput ?? request.input,
    toolUseID: request.toolUseId,
    ...(updatedPermissions ? { updatedPermissions } : {}),
  };
}

export type PendingPermission = {
  request: ToolPermissionRequest;
  state: "pending" | "answered" | "withdrawn";
};

/**
 * Parks permission requests until someone answers them: the bridge between the SDK callback
 * (which waits) and an app that answers asynchronously (a RuntimeRequest resolved by a user).
 */
export class PermissionBroker {
  private readonly entries = new Map<
    string,
    PendingPermission & { resolve: (d: ToolPermissionDecision) => void }
  >();
  private readonly listeners = new Set<(entry: PendingPermission) => void>();

  /** Pass as a session's permission handler. */
  readonly handler: PermissionHandler = (request) =>
    new Promise<ToolPermissionDecision>((resolve) => {
      const entry = { request, state: "pending" as PendingPermission["state"], resolve };
      this.entries.set(request.requestId, entry);
      request.signal.addEventListener(
        "abort",
        () => {
          if (entry.state !== "pending") return;
          entry.state = "withdrawn";
          this.emit(entry);
          // Claude Code has already given up on this call; the answer is ignored.
          resolve({ behavior: "deny", message: "Withdrawn." });
        },
        { once: true },
      );
      this.emit(entry);
    });

  /** Called on every new request and every withdrawal. Returns an unsubscribe function. */
  onChange(listener: (entry: PendingPermission) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  pending(): ToolPermissionRequest[] {
    return [...this.entries.values()].filter((e) => e.state === "pending").map((e) => e.request);
  }

  /** Resolves with the next pending request (one already waiting counts). */
  nextRequest(timeoutMs = 15_000): Promise<ToolPermissionRequest> {
    const waiting = this.pending()[0];
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no permission request within ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.onChange((entry) => {
        if (entry.state !== "pending") return;
        clearTimeout(timer);
        off();
        resolve(entry.request);
      });
    });
  }

  /** Answers a pending request. Throws when it is unknown or no longer answerable. */
  answer(requestId: string, decision: ToolPermissionDecision): void {
    const entry = this.entries.get(requestId);
    if (!entry) throw new Error(`unknown permission request ${requestId}`);
    if (entry.state !== "pending")
      throw new Error(`permission request ${requestId} is ${entry.state}`);
    entry.state = "answered";
    entry.resolve(decision);
    this.emit(entry);
  }

  private emit(entry: PendingPermission): void {
    const view: PendingPermission = { request: entry.request, state: entry.state };
    for (const listener of this.listeners) listener(view);
  }
}

/** A Skein answer to a RuntimeRequest as the decision `canUseTool` returns. */
export function decisionFor(
  request: ToolPermissionRequest,
  answer: RuntimeRequestAnswer,
): ToolPermissionDecision {
  switch (answer.decision) {
    case "accept":
    case "accept_for_session":
      return {
        behavior: "allow",
        rememberForSession: answer.decision === "accept_for_session",
        ...(answer.answers
          ? { updatedInput: { ...request.input, answers: answersFor(request, answer.answers) } }
          : {}),
      };
    case "decline":
      return { behavior: "deny", message: "The user declined this tool call." };
    case "cancel":
      return { behavior: "deny", message: "The user cancelled this turn.", interrupt: true };
  }
}

function answersFor(
  request: ToolPermissionRequest,
  answers: Record<string, string>,
): Record<string, string> {
  return request.toolName === "AskUserQuestion" ? askUserAnswers(request.input, answers) : answers;
}
