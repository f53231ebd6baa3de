import type {
  SiblingFilter,
  TitleFilter,
  PortFilter,
  ProjectionFilter,
  ProjectionQuery,
  ProjectionRow,
  ThreadPageFilter,
} from "./event-store.ts";
import { EXCERPT_BEFORE, EXCERPT_LENGTH, MESSAGE_SEARCH_SCAN } from "./message-search.ts";
import type { ProjectionTable } from "./projection-types.ts";
import { highestSiblingOf } from "./sibling-number.ts";
import { threadListing } from "./thread-listing.ts";

/** Projection rows held in memory, keyed `table/id` (e.g. rebuilt from the log up to a sequence). */
export type MemoryRows = ReadonlyMap<string, ProjectionRow & { table: ProjectionTable }>;

export const memoryRowKey = (table: ProjectionTable, id: string): string => `${table}/${id}`;

function matches(row: ProjectionRow, filter: Omit<ProjectionFilter, "limit">): boolean {
  if (filter.threadId !== undefined && row.threadId !== filter.threadId) return false;
  if (typeof filter.status === "string" && row.status !== filter.status) return false;
  if (Array.isArray(filter.status) && !filter.status.includes(row.status ?? "")) return false;
  if (filter.maxSortKey !== undefined && row.sortKey > filter.maxSortKey) return false;
  if (
    filter.maxRunOrdinal !== undefined &&
    row.runOrdinal !== null &&
    row.runOrdinal > filter.maxRunOrdinal
  ) {
    return false;
  }
  if (filter.minSortKey !== undefined && row.sortKey < filter.minSortKey) return false;
  if (
    filter.minRunOrdinal !== undefined &&
    row.runOrdinal !== null &&
    row.runOrdinal < filter.minRunOrdinal
  ) {
    return false;
  }
  if (filter.runOrdinal !== undefined && row.runOrdinal !== filter.runOrdinal) return false;
  return true;
}

/** The listing columns the store derives from a `threads` row's JSON (migration 0005). */
function listing(row: ProjectionRow) {
  const data = row.data as {
    projectId?: string;
    title?: string;
    lastActivityAt?: string;
    archivedAt?: string | null;
    deletedAt?: string | null;
  };
  const visibility = data.deletedAt ? "deleted" : data.archivedAt ? "archived" : "active";
  return {
    projectId: data.projectId,
    title: data.title ?? "",
    activeAt: data.lastActivityAt ?? "",
    visibility,
  };
}

function inPage(row: ProjectionRow, filter: ThreadPageFilter): boolean {
  const columns = listing(row);
  if (columns.visibility !== filter.visibility) return false;
  if (filter.projectId !== undefined && columns.projectId !== filter.projectId) return false;
  if (filter.query && !columns.title.toLowerCase().includes(filter.query.toLowerCase())) {
    return false;
  }
  if (filter.after) {
    const { activeAt, id } = filter.after;
    if (!(columns.activeAt < activeAt || (columns.activeAt === activeAt && row.id < id))) {
      return false;
    }
  }
  return true;
}

/**
 * A returned row as the SQL readers return it (they have no `table` column). `data` is read by
 * name: a row may compute it (B8 stored checkpoints parse it on first use), which a spread skips.
 */
function withoutTable(row: ProjectionRow): ProjectionRow {
  const { table: _table, ...rest } = row as ProjectionRow & { table?: ProjectionTable };
  return { ...rest, data: row.data };
}

/** The thread list's `ORDER BY active_at DESC, id DESC`. */
function byActivity(a: ProjectionRow, b: ProjectionRow): number {
  const x = listing(a).activeAt;
  const y = listing(b).activeAt;
  if (x !== y) return x < y ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The store's `ORDER BY sort_key, id` (binary comparison of ids). */
function byKey(a: ProjectionRow, b: ProjectionRow): number {
  if (a.sortKey !== b.sortKey) return a.sortKey - b.sortKey;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The store's ProjectionQuery over rows in memory, with the same filter and order semantics as
 * the SQL readers, so every read model runs unchanged over a rebuilt past state.
 */
export function memoryProjectionQuery(rows: MemoryRows): ProjectionQuery {
  // Grouped by table on first use: a read lists a few tables, each of which may be small next to
  // the whole image (the rows are not expected to change while the query is in use).
  // Rows are grouped as they are and copied (without `table`) only when returned: a row's data
  // may be read lazily (B8 checkpoints parse it on first use), and filters never read it.
  let byTable: Map<ProjectionTable, ProjectionRow[]> | null = null;
  const tableRows = (table: ProjectionTable): ProjectionRow[] => {
    if (!byTable) {
      byTable = new Map();
      for (const row of rows.values()) {
        const list = byTable.get(row.table);
        if (list) list.push(row);
        else byTable.set(row.table, [row]);
      }
    }
    return byTable.get(table) ?? [];
  };
  const ofTable = (table: ProjectionTable, filter: Omit<ProjectionFilter, "limit">) =>
    tableRows(table).filter((row) => matches(row, filter));
  return {
    async get(table, id) {
      const row = rows.get(memoryRowKey(table, id));
      return row && withoutTable(row);
    },
    async list(table, filter = {}) {
      const sorted = ofTable(table, filter).sort(byKey);
      if (filter.descending) sorted.reverse();
      const page = filter.limit === undefined ? sorted : sorted.slice(0, filter.limit);
      return page.map(withoutTable);
    },
    async threadPage(filter) {
      const page = ofTable("threads", {}).filter((row) => inPage(row, filter));
      page.sort(byActivity);
      return page.slice(0, filter.limit).map(withoutTable);
    },
    async highestSibling(filter: SiblingFilter) {
      const titles: string[] = [];
      for (const row of ofTable("threads", {})) {
        const { projectId, title, visibility } = listing(row);
        if (projectId === filter.projectId && visibility !== "deleted") titles.push(title);
      }
      return highestSiblingOf(titles, filter.stem);
    },
    async titleTaken(filter: TitleFilter) {
      return ofTable("threads", {}).some((row) => {
        const { projectId, title, visibility } = listing(row);
        return projectId === filter.projectId && title === filter.title && visibility !== "deleted";
      });
    },
    async portsHeld(filter: PortFilter) {
      const held = new Set<number>();
      for (const row of ofTable("threads", {})) {
        if (row.id === filter.except || listing(row).visibility !== "active") continue;
        // The port as the stores' column holds it (thread-listing.ts).
        const { port } = threadListing(row.data);
        if (port !== null && port >= filter.from && port <= filter.to) held.add(port);
      }
      return [...held].sort((a, b) => a - b);
    },
    async subagentChildren(threadId: string) {
      return ofTable("threads", {})
        .filter((row) => {
          const { subagentOf, visibility } = threadListing(row.data);
          return subagentOf === threadId && visibility !== "deleted";
        })
        .map((row) => row.id)
        .sort();
    },
    async messageThreadPage(filter) {
      const threads = new Map(ofTable("threads", {}).map((row) => [row.id, row]));
      const hits = new Map<string, { row: ProjectionRow; excerpt: string }>();
      const needle = filter.query.toLowerCase();
      // Newest first, as the SQL readers scan them (the bound applies to matching messages).
      const messages = ofTable("messages", { status: "complete" }).sort(
        (a, b) => b.updatedSequence - a.updatedSequence || (a.id < b.id ? 1 : -1),
      );
      let scanned = 0;
      for (const message of messages) {
        const text = String((message.data as { text?: unknown }).text ?? "");
        const at = text.toLowerCase().indexOf(needle);
        if (at < 0) continue;
        scanned += 1;
        if (scanned > MESSAGE_SEARCH_SCAN) break;
        const thread = message.threadId === null ? undefined : threads.get(message.threadId);
        if (thread === undefined || hits.has(thread.id)) continue;
        const from = Math.max(0, at - EXCERPT_BEFORE);
        hits.set(thread.id, { row: thread, excerpt: text.slice(from, from + EXCERPT_LENGTH) });
      }
      const page = [...hits.values()].filter(({ row }) => inPage(row, { ...filter, query: "" }));
      page.sort((a, b) => byActivity(a.row, b.row));
      return page
        .slice(0, filter.limit)
        .map(({ row, excerpt }) => ({ row: withoutTable(row), excerpt }));
    },
    async count(table, filter = {}) {
      return ofTable(table, filter).length;
    },
  };
}
