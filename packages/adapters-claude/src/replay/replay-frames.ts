import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { RawFrame, RuntimeEvent } from "@skein/domain/provider";
import { appToolNameOf } from "../app-tool-server.ts";
import type { ToolPermissionRequest } from "../permissions.ts";
import { isExitPlanTool } from "../tool-kinds.ts";
import { TurnEventMapper } from "../turn-event-mapper.ts";
import { classifyResult, consumedUserUuids, mainThreadEntryUuid } from "../turn-outcome.ts";
import { claudeRuntimeGone, claudeTurnFailure } from "../turn-failure.ts";

/** A recorded raw-log record (E18), with the id it was logged under when known. */
export type ReplayFrame = Omit<RawFrame, "provider" | "providerSessionId"> & {
  provider?: string;
  providerSessionId?: string;
  rawEventId?: string;
};

type Turn = {
  ref: string | null;
  /** The CLI session its messages come from (null: not known yet, any). */
  sessionId: string | null;
  /** Made at the turn's first incoming frame: the process says its cwd (`system/init`) first. */
  made: TurnEventMapper | null;
  lastAssistant: string | null;
  lastEntry: string | null;
  /** User messages sent for it (its own, then steers) that no result has answered yet. */
  waiting: string[];
  interrupted: boolean;
};

/**
 * Issue 18 (replay): recorded Claude SDK frames through the same mapping the live session uses
 * (`TurnEventMapper`), without a process. A turn opens with the user message Skein sent (its uuid
 * is the turn's native ref), SDK messages of its CLI session feed it, `can_use_tool` callbacks
 * open requests (our recorded denials decline them), and it ends at the `result` answering the
 * last user message sent for it: a user message sent while it runs is a steer, folded in as the
 * live `SteeredTurn` does, and a recorded `interrupt` ends it `interrupted`. `session_start`
 * frames mark new CLI processes (cost restarts; the turns after one run in its session). The
 * working directory comes from the session's `system/init` message unless given.
 */
export async function replayClaudeFrames(
  frames: readonly ReplayFrame[],
  options: { cwd?: string } = {},
): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  // A session's cwd is its process's: `system/init` says it, though only after the first
  // frames of the first turn (the CLI acknowledges the queued message before it starts).
  let cwd = options.cwd ?? initCwd(frames) ?? "";
  let turn: Turn | null = null;
  /** The SDK reports cost since its process started; a turn costs the difference (as live). */
  const spentUsd = new Map<string, number>();
  /** The session the next turn runs in: the last one started, or the last turn's. */
  let currentSession: string | null = null;
  const mapperOf = (turn: Turn): TurnEventMapper => {
    turn.made ??= new TurnEventMapper(cwd, turn.ref);
    return turn.made;
  };
  const end = async (ended: Turn, finish: (mapper: TurnEventMapper) => void) => {
    const mapper = mapperOf(ended);
    finish(mapper);
    for await (const event of mapper.events) out.push(event);
  };
  for (const [index, frame] of frames.entries()) {
    const rawEventId = frame.rawEventId ?? `frame:${index + 1}`;
    const payload = asRecord(frame.payload);
    if (frame.direction === "outgoing") {
      if (frame.method === "session_start" && typeof payload.sessionId === "string") {
        currentSession = payload.sessionId;
        spentUsd.set(currentSession, 0);
      } else if (frame.method === "user" && frame.messageKind === "request") {
        const ref = typeof frame.jsonRpcId === "string" ? frame.jsonRpcId : null;
        if (turn) {
          if (ref) turn.waiting.push(ref);
        } else {
          turn = {
            ref,
            sessionId: currentSession,
            made: null,
            lastAssistant: null,
            lastEntry: null,
            waiting: ref ? [ref] : [],
            interrupted: false,
          };
        }
      } else if (frame.method === "interrupt" && turn) {
        turn.interrupted = true;
      } else if (frame.method === "can_use_tool" && payload.behavior === "deny" && turn) {
        const toolUseId = payload.toolUseID;
        if (typeof toolUseId === "string") mapperOf(turn).requestDeclined(toolUseId);
      }
      continue;
    }
    if (frame.messageKind === "notification") {
      const message = frame.payload as SDKMessage;
      if (message.type === "system" && message.subtype === "init" && !options.cwd) {
        cwd = message.cwd;
      }
      if (!turn) continue;
      // A late message of another CLI process (a fork's source, say) is not this turn's.
      const from = (message as { session_id?: unknown }).session_id;
      if (typeof from === "string") {
        if (turn.sessionId !== null && from !== turn.sessionId) continue;
        turn.sessionId = from;
        currentSession = from;
      }
      const entry = mainThreadEntryUuid(message);
      if (entry !== null) {
        turn.lastEntry = entry;
        if (message.type === "assistant") turn.lastAssistant = entry;
      }
      let cost: number | undefined;
      if (message.type === "result") {
        const key = turn.sessionId ?? "";
        const spent = spentUsd.get(key) ?? 0;
        cost = Math.max(0, message.total_cost_usd - spent);
        spentUsd.set(key, Math.max(spent, message.total_cost_usd));
      }
      mapperOf(turn).handle({ message, rawEventId, receivedAt: 0 }, cost);
      if (message.type === "result") {
        // As live: a result settles the user messages it names, or else the oldest waiting.
        const consumed = consumedUserUuids(message);
        const answered = consumed.length > 0 ? consumed : turn.waiting.slice(0, 1);
        turn.waiting = turn.waiting.filter((uuid) => !answered.includes(uuid));
        if (turn.waiting.length > 0) continue;
        const current = turn;
        const { status, error } = classifyResult(message, current.interrupted);
        await end(current, (mapper) =>
          mapper.finish({
            status: current.interrupted ? "interrupted" : status,
            error: current.interrupted ? null : error,
            failure:
              !current.interrupted && status === "failed"
                ? claudeTurnFailure(error ?? "", undefined)
                : null,
            result: message,
            lastAssistantUuid: current.lastAssistant,
            lastEntryUuid: current.lastEntry,
          }),
        );
        turn = null;
      }
      continue;
    }
    if (frame.messageKind === "request" && frame.method === "can_use_tool" && turn) {
      const request = permissionRequest(String(frame.jsonRpcId), payload, rawEventId);
      if (appToolNameOf(request.toolName) !== null) continue;
      if (isExitPlanTool(request.toolName)) {
        const plan = request.input.plan;
        if (typeof plan === "string") mapperOf(turn).proposedPlan(request.toolUseId, plan);
        continue;
      }
      mapperOf(turn).requestOpened(request);
    }
  }
  // A recording that stops mid-turn: the turn ends as it would when its process died.
  const open = turn;
  if (open) {
    await end(open, (mapper) =>
      mapper.finish({
        status: "failed",
        error: "the recording ends before the turn does",
        failure: claudeRuntimeGone("the recording ends before the turn does"),
        result: null,
        lastAssistantUuid: open.lastAssistant,
        lastEntryUuid: open.lastEntry,
      }),
    );
  }
  return out;
}

/** The permission callback as the live session builds it, from its recorded arguments. */
function permissionRequest(
  requestId: string,
  p: Record<string, unknown>,
  rawEventId: string,
): ToolPermissionRequest {
  const text = (key: string) => (typeof p[key] === "string" ? (p[key] as string) : null);
  return {
    requestId,
    toolName: text("toolName") ?? "",
    input: asRecord(p.input),
    toolUseId: text("toolUseID") ?? "",
    agentId: text("agentID"),
    title: text("title"),
    description: text("description"),
    blockedPath: text("blockedPath"),
    decisionReason: text("decisionReason"),
    suggestions: Array.isArray(p.suggestions) ? p.suggestions : [],
    signal: new AbortController().signal,
    rawEventId,
  };
}

function initCwd(frames: readonly ReplayFrame[]): string | null {
  for (const frame of frames) {
    const p = asRecord(frame.payload);
    if (p.type === "system" && p.subtype === "init" && typeof p.cwd === "string") return p.cwd;
  }
  return null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
