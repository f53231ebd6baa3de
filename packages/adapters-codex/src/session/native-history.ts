import {
  CapabilityUnsupportedError,
  type NativeHistoryTurn,
  type NativeTurnBoundary,
} from "@skein/domain/provider";
import type { ThreadTurnsListResponse, Turn } from "../protocol/index.ts";
import type { CodexAppServerClient } from "../rpc/app-server-client.ts";

const PAGE_SIZE = 100;

/** Every native turn of a thread, oldest first (the API pages newest first by default). */
export async function listNativeTurns(
  client: CodexAppServerClient,
  threadId: string,
): Promise<Turn[]> {
  const turns: Turn[] = [];
  let cursor: string | null = null;
  do {
    const page: ThreadTurnsListResponse = await client.request("thread/turns/list", {
      threadId,
      cursor,
      limit: PAGE_SIZE,
      sortDirection: "asc",
      itemsView: "summary",
    });
    turns.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return turns;
}

/**
 * How many native turns stay when keeping everything up to `boundary` (inclusive). With a native
 * turn ref that is exact (C1). Without one (C2) the boundary is found by counting the terminal
 * turns Skein knows after it, which only holds while Skein's history and Codex's agree — so any
 * disagreement is an explicit CapabilityUnsupportedError, never a guess.
 */
export function keptTurnCount(
  native: readonly Turn[],
  boundary: NativeTurnBoundary,
  operation: string,
): number {
  const ref = boundary.turn.nativeTurnRef;
  if (ref !== null) {
    const index = native.findIndex((t) => t.id === ref);
    if (index < 0) throw new Error(`${operation}: turn ${ref} is not in the native thread`);
    return index + 1;
  }
  const laterTerminal = boundary.history.filter(
    (t) => t.ordinal > boundary.turn.ordinal && isTerminal(t.status),
  ).length;
  const kept = native.length - laterTerminal;
  const consistent =
    boundary.history.length === native.length && kept === boundary.turn.ordinal && kept >= 0;
  if (!consistent) {
    throw new CapabilityUnsupportedError(
      "codex",
      "forkAtTurn",
      operation,
      `no native turn ref, and Skein's ${boundary.history.length} turns do not line up with ` +
        `Codex's ${native.length}, so the boundary after turn ${boundary.turn.ordinal} is unknown`,
    );
  }
  return kept;
}

export function toHistoryTurn(turn: Turn, index: number): NativeHistoryTurn {
  let userText: string | null = null;
  let assistantText: string | null = null;
  for (const item of turn.items) {
    if (item.type === "userMessage") {
      const text = item.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      userText = userText === null ? text : `${userText}\n${text}`;
    } else if (item.type === "agentMessage") {
      assistantText = item.text;
    }
  }
  return { nativeTurnRef: turn.id, ordinal: index + 1, userText, assistantText };
}

function isTerminal(status: string): boolean {
  return status === "completed" || status === "interrupted" || status === "failed";
}
