import type { AggregateState } from "../decide.ts";
import type { DomainEvent } from "../events.ts";
import type { RunAttemptId, RunId } from "../ids.ts";
import type { ProjectState, SessionState } from "../state/project-state.ts";
import type { ThreadState } from "../state/thread-state.ts";
import type { ProjectionPut, ProjectionTable, ProjectionWrite } from "./projection-write.ts";
import { threadShellOf } from "./thread-shell.ts";

/**
 * The row writes for one event, computed from the state right after it was evolved: every row
 * the event touched (`state.changed`), with its full entity as `data`. The store applies them in
 * the same transaction as the event.
 *
 * Columns: `threadId` is the owning thread; `runOrdinal` the run the row belongs to; `sortKey`
 * the turn item's sort key for `turn_items` and the run ordinal (or 0) everywhere else; `status`
 * the entity status (for `threads` the shell status, for messages streaming|complete).
 */
export function projectEvent(stateAfter: AggregateState, _event: DomainEvent): ProjectionWrite[] {
  const writes: ProjectionWrite[] = [];
  for (const [id, table] of stateAfter.changed) {
    const row = rowFor(stateAfter, table, id);
    if (row) writes.push(row);
  }
  return writes;
}

export function rowFor(
  s: AggregateState,
  table: ProjectionTable,
  id: string,
): ProjectionPut | null {
  if (s.kind === "project") return projectRow(s, id);
  if (s.kind === "session") return sessionRow(s, id);
  return threadRow(s, table, id);
}

function put(
  table: ProjectionTable,
  id: string,
  threadId: string | null,
  runOrdinal: number | null,
  status: string | null,
  data: unknown,
  sortKey: number = runOrdinal ?? 0,
): ProjectionPut {
  return { op: "put", table, id, threadId, sortKey, runOrdinal, status, data };
}

function projectRow(s: ProjectState, id: string): ProjectionPut | null {
  const p = s.project;
  if (!p || p.id !== id) return null;
  const status = p.deletedAt ? "deleted" : p.archivedAt ? "archived" : "active";
  return put("projects", p.id, null, null, status, p);
}

function sessionRow(s: SessionState, id: string): ProjectionPut | null {
  const session = s.session;
  if (!session || session.id !== id) return null;
  return put("provider_sessions", session.id, null, null, session.status, session);
}

/** Branded-key Maps are read by the raw row id here (method params are bivariant). */
function byId<V>(map: ReadonlyMap<string, V>, id: string): V | undefined {
  return map.get(id);
}

function ordinalOf(s: ThreadState, runId: RunId | null): number | null {
  return runId ? (s.runs.get(runId)?.ordinal ?? null) : null;
}

function attemptOrdinal(s: ThreadState, attemptId: RunAttemptId | null): number | null {
  const attempt = attemptId ? s.attempts.get(attemptId) : undefined;
  return attempt ? ordinalOf(s, attempt.runId) : null;
}

function threadRow(s: ThreadState, table: ProjectionTable, id: string): ProjectionPut | null {
  const threadId = s.thread?.id ?? null;
  switch (table) {
    case "threads": {
      const shell = threadShellOf(s);
      return shell ? put("threads", shell.id, shell.id, null, shell.status, shell) : null;
    }
    case "runs": {
      const run = byId(s.runs, id);
      return run ? put(table, id, threadId, run.ordinal, run.status, run) : null;
    }
    case "attempts": {
      const a = byId(s.attempts, id);
      return a ? put(table, id, threadId, ordinalOf(s, a.runId), a.status, a) : null;
    }
    case "nodes": {
      const n = byId(s.nodes, id);
      return n ? put(table, id, threadId, ordinalOf(s, n.runId), n.status, n) : null;
    }
    case "messages": {
      const m = byId(s.messages, id);
      if (!m) return null;
      return put(
        table,
        id,
        threadId,
        ordinalOf(s, m.runId),
        m.streaming ? "streaming" : "complete",
        m,
      );
    }
    case "plans": {
      const p = byId(s.plans, id);
      return p ? put(table, id, threadId, ordinalOf(s, p.runId), p.status, p) : null;
    }
    case "turn_items": {
      const entry = byId(s.turnItems, id);
      if (!entry) return null;
      const { item, sortKey } = entry;
      return put(table, id, threadId, item.runOrdinal, item.status, item, sortKey);
    }
    case "transfers": {
      const t = byId(s.transfers, id);
      if (!t) return null;
      return put(
        table,
        id,
        threadId,
        ordinalOf(s, t.consumedByRunId ?? t.targetRunId),
        t.status,
        t,
      );
    }
    case "handoffs": {
      const h = byId(s.handoffs, id);
      return h ? put(table, id, threadId, ordinalOf(s, h.targetRunId), h.status, h) : null;
    }
    case "provider_threads": {
      const pt = byId(s.providerThreads, id);
      return pt ? put(table, id, threadId, null, pt.status, pt) : null;
    }
    case "provider_turns": {
      const turn = byId(s.providerTurns, id);
      return turn
        ? put(table, id, threadId, attemptOrdinal(s, turn.runAttemptId), turn.status, turn)
        : null;
    }
    case "requests": {
      const r = byId(s.requests, id);
      return r ? put(table, id, threadId, ordinalOf(s, r.runId), r.status, r) : null;
    }
    case "checkpoints": {
      const c = byId(s.checkpoints, id);
      return c
        ? put(table, id, threadId, c.appRunOrdinal ?? ordinalOf(s, c.runId), c.status, c)
        : null;
    }
    default:
      return null;
  }
}
