/**
 * Normalized runtime events: what an adapter reports while a turn runs. They carry native refs
 * only (strings the provider chose); the orchestrator owns every persisted id and turns these into
 * commands, so recovery and replay run through the same path as live work (E8).
 */

import type { ProviderFailure } from "./provider-failure.ts";

/** Terminal status of a native turn as the provider reported it. */
export type RuntimeTurnStatus = "completed" | "interrupted" | "failed";

/** Item kinds an adapter can report; they map onto TurnItem variants and ExecutionNode kinds. */
export type RuntimeItemKind =
  | "user_message"
  | "assistant_message"
  | "reasoning"
  | "command_execution"
  | "file_change"
  | "file_search"
  | "web_search"
  | "dynamic_tool"
  | "compaction"
  | "subagent"
  /** A hook the runtime ran (Claude settings hooks): an E5 `hook` node. */
  | "hook"
  /** Something the runtime said about itself (a warning, a deprecation): an E5 `system` node. */
  | "notice";

export type RuntimeFileChange = {
  path: string;
  kind: "add" | "delete" | "update";
  diff?: string;
  additions?: number;
  deletions?: number;
};

/** Fields an item may carry at start or completion; which ones apply depends on `kind`. */
export type RuntimeItemFields = {
  text?: string;
  command?: string;
  cwd?: string;
  output?: string;
  exitCode?: number | null;
  changes?: RuntimeFileChange[];
  query?: string;
  toolName?: string;
  input?: unknown;
  result?: unknown;
  /** For `subagent`: the provider's description/prompt of the child's task. */
  description?: string;
  /** For `subagent`: the native threads of the sub-agents it spawned, where the provider says. */
  agentThreadRefs?: string[];
  /** For `hook` and `notice`: what it is, in the runtime's words. */
  summary?: string;
};

/**
 * E18: `strong` when `itemRef` is the runtime's own id for the item; `weak` when the adapter made
 * it up (the runtime gave none), so it must never be taken to name an item seen before.
 */
export type RuntimeRefStrength = "strong" | "weak";

export type RuntimeRequestKind =
  | "command"
  | "file-read"
  | "file-change"
  | "dynamic_tool_call"
  | "user_input"
  | "auth_refresh";

export type RuntimeQuestion = {
  id: string;
  /** A short label for the question (Claude and Codex both send one). */
  header?: string;
  question: string;
  /** Several options may be picked (Claude); the answer then lists them comma-separated. */
  multiSelect?: boolean;
  options?: Array<{ label: string; description?: string }>;
};

type Correlated = {
  /** Pointer into the raw provider log (E18), when the adapter logged the frame. */
  rawEventId?: string;
  /**
   * T9: the native thread of the sub-agent this event comes from (its items, requests, plans,
   * usage), between that sub-agent's `subagent.started` and `subagent.completed`; absent for
   * the turn's own thread.
   */
  childThreadRef?: string;
};

export type RuntimeEvent = Correlated &
  (
    | { type: "turn.started"; nativeTurnRef: string | null }
    | {
        type: "item.started";
        itemRef: string;
        /** Absent means `strong`. */
        refStrength?: RuntimeRefStrength;
        kind: RuntimeItemKind;
        /** Native ref of the enclosing item (e.g. a subagent call) for nested/child work. */
        parentItemRef?: string | null;
        fields: RuntimeItemFields;
      }
    | { type: "item.delta"; itemRef: string; field: "text" | "output"; delta: string }
    | {
        type: "item.completed";
        itemRef: string;
        refStrength?: RuntimeRefStrength;
        kind: RuntimeItemKind;
        parentItemRef?: string | null;
        status: "completed" | "failed" | "declined" | "interrupted";
        fields: RuntimeItemFields;
      }
    | {
        type: "plan.updated";
        planRef: string;
        kind: "todo_list" | "proposed_plan";
        steps?: Array<{ text: string; status: "pending" | "running" | "completed" }>;
        markdown?: string;
      }
    | {
        type: "request.opened";
        requestRef: string;
        kind: RuntimeRequestKind;
        itemRef?: string | null;
        summary: string;
        command?: string;
        cwd?: string;
        changes?: RuntimeFileChange[];
        questions?: RuntimeQuestion[];
        toolName?: string;
        input?: unknown;
      }
    | { type: "request.closed"; requestRef: string; reason: string }
    | {
        /** The turn's usage so far (a running total: the latest one is the whole turn). */
        type: "usage";
        inputTokens: number;
        outputTokens: number;
        cachedInputTokens?: number;
        reasoningTokens?: number;
        /** US dollars, where the provider reports a cost (Claude's `total_cost_usd`). */
        costUsd?: number;
        /** The context window filled at the latest model response, and its size (Codex, Claude). */
        contextTokens?: number;
        contextWindow?: number;
      }
    | {
        /** T9: a sub-agent of this turn started a turn on its own native thread. */
        type: "subagent.started";
        childThreadRef: string;
        nativeTurnRef: string | null;
        /** The item of this turn that spawned it, when known. */
        parentItemRef?: string | null;
        /** What the sub-agent was asked to do (or its name, when the task is not reported). */
        description?: string;
        /**
         * Whether the sub-agent's native thread can later be resumed on its own (a Codex
         * sub-agent thread can; a Claude Task sub-agent lives inside its parent's session).
         */
        resumable: boolean;
      }
    | {
        /** T9: the sub-agent's turn ended; its later work (if any) starts a new one. */
        type: "subagent.completed";
        childThreadRef: string;
        nativeTurnRef: string | null;
        status: RuntimeTurnStatus;
        error?: string;
      }
    | {
        /**
         * B15: the runtime cannot reach its model and retries on its own (Codex "Reconnecting…"
         * notices, Claude `api_retry` messages). Says nothing about the turn's outcome.
         */
        type: "model.retrying";
        /** The runtime's retry count and its limit, when it says them. */
        attempt: number | null;
        maxAttempts: number | null;
        /** The runtime's own words for why (e.g. "Connection refused (os error 111)"). */
        cause: string;
      }
    | {
        type: "turn.completed";
        nativeTurnRef: string | null;
        status: RuntimeTurnStatus;
        /** The provider's words for a failed turn (the same as `failure.message` when both). */
        error?: string;
        /** B2: a failed turn's cause as the adapter read it; absent means unexplained. */
        failure?: ProviderFailure;
      }
  );

export type RuntimeEventType = RuntimeEvent["type"];

/** The answer to a runtime request, as the app gives it to the adapter. */
export type RuntimeRequestAnswer = {
  decision: "accept" | "accept_for_session" | "decline" | "cancel";
  answers?: Record<string, string>;
};
