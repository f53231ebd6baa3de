import type { ThreadDetailView, ThreadShells } from "@skein/contract";
import { type Run, type ThreadShell, type TurnItem, visibleItemsOf } from "@skein/domain";

/**
 * What the MCP tools answer about threads: the API's reads with what only the UI and debugging
 * need left out (raw frame ranges, node and native refs), so an agent's context holds the
 * conversation, not the plumbing. Long outputs are cut; the full read stays one API call away.
 */

/** A command output or diff in an item past this many characters is cut. */
const MAX_FIELD_CHARS = 8_000;

function cut(value: unknown): unknown {
  if (typeof value !== "string" || value.length <= MAX_FIELD_CHARS) return value;
  return `${value.slice(0, MAX_FIELD_CHARS)}… [${value.length - MAX_FIELD_CHARS} more characters]`;
}

export function threadSummary(t: ThreadShell) {
  return {
    threadId: t.id,
    projectId: t.projectId,
    title: t.title,
    defaultProvider: t.defaultProvider,
    status: t.status,
    runCount: t.runCount,
    lineage: t.lineage,
    createdBy: t.createdBy ?? "user",
    agentName: t.agentName ?? null,
    archived: t.archivedAt !== null,
    lastActivityAt: t.lastActivityAt,
  };
}

export function runSummary(r: Run) {
  return {
    runId: r.id,
    ordinal: r.ordinal,
    provider: r.provider,
    model: r.model,
    status: r.status,
    error: r.error,
  };
}

const PLUMBING = new Set([
  "threadId",
  "nodeId",
  "providerTurnId",
  "nativeItemRef",
  "rawFrames",
  "messageId",
  "createdAt",
]);

export function itemSummary(item: TurnItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (!PLUMBING.has(key)) out[key] = cut(value);
  }
  return out;
}

export function shellPage(page: ThreadShells) {
  return { threads: page.threads.map(threadSummary), nextCursor: page.nextCursor };
}

/** One window of a thread: a fork's inherited conversation included (P7). */
export function threadWindow(detail: ThreadDetailView) {
  return {
    thread: threadSummary(detail.thread),
    runs: detail.runs.map(runSummary),
    items: visibleItemsOf(detail).map(itemSummary),
    pendingRequests: detail.pendingRequests.map((r) => ({
      requestId: r.id,
      runId: r.runId,
      kind: r.kind,
      title: r.title,
      detail: r.detail,
      answerable: r.answerable,
    })),
    window: detail.window,
    snapshotSequence: detail.snapshotSequence,
  };
}
