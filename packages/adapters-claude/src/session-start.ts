import { randomUUID } from "node:crypto";
import type { Options } from "@anthropic-ai/claude-agent-sdk";

/** Which native conversation the session's process opens. */
export type ClaudeSessionStart =
  /** A new conversation; `sessionId` pre-assigns its id (default: a random UUID). */
  | { kind: "new"; sessionId?: string }
  /**
   * An existing conversation. With `rewindTo` (a transcript entry uuid) everything after that
   * entry is dropped in place once the next message is sent (rollback).
   */
  | { kind: "resume"; sessionId: string; rewindTo?: string }
  /**
   * A copy of `fromSessionId` under a new id, cut after entry `at` when given. The source is
   * never written; the fork's transcript exists once its first message is sent.
   */
  | { kind: "fork"; fromSessionId: string; at?: string; sessionId?: string };

/**
 * The native session id and the SDK options for a start. The id is known before the first turn:
 * Skein assigns it for new sessions and forks (the SDK accepts `sessionId` next to `resume` only
 * when forking).
 */
export function startOptions(start: ClaudeSessionStart): {
  sessionId: string;
  sdk: Partial<Options>;
} {
  switch (start.kind) {
    case "new": {
      const sessionId = start.sessionId ?? randomUUID();
      return { sessionId, sdk: { sessionId } };
    }
    case "resume":
      return {
        sessionId: start.sessionId,
        sdk: {
          resume: start.sessionId,
          ...(start.rewindTo ? { resumeSessionAt: start.rewindTo } : {}),
        },
      };
    case "fork": {
      const sessionId = start.sessionId ?? randomUUID();
      return {
        sessionId,
        sdk: {
          resume: start.fromSessionId,
          forkSession: true,
          sessionId,
          ...(start.at ? { resumeSessionAt: start.at } : {}),
        },
      };
    }
  }
}
