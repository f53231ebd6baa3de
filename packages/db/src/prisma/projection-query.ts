import type {
  ProjectionFilter,
  ProjectionQuery,
  ProjectionRow,
  ThreadPageFilter,
} from "../event-store.ts";
import { isProjectionTable } from "../projection-tables.ts";
import { pgMessageThreadPage } from "../postgres/pg-message-search.ts";
import { messageSearchSql, toMessageThreadRows } from "../sqlite/message-search.ts";
import { escapeLike } from "../projection-sql.ts";
import type { ProjectionTable } from "../projection-types.ts";
import { highestSiblingOf } from "../sibling-number.ts";

/** A projection row as either generated client returns it (PostgreSQL's sequence is a BigInt). */
type ProjectionRecord = {
  id: string;
  threadId: string | null;
  sortKey: number;
  runOrdinal: number | null;
  status: string | null;
  data: string;
  updatedSequence: number | bigint;
};

// The where and order shapes both clients' projection models accept (one generic row shape,
// docs/design.md); `threads` adds the listing columns.
type Where = Record<string, unknown>;
type Order = Record<string, "asc" | "desc">[];

/** The part of a projection model's delegate these reads use, the same in both clients. */
type ProjectionModel = {
  findUnique(args: {
    where: { id: string };
    select: typeof SELECT;
  }): Promise<ProjectionRecord | null>;
  findMany(args: {
    where: Where;
    orderBy: Order;
    take?: number;
    select: typeof SELECT;
  }): Promise<ProjectionRecord[]>;
  count(args: { where: Where }): Promise<number>;
};

const SELECT = {
  id: true,
  threadId: true,
  sortKey: true,
  runOrdinal: true,
  status: true,
  data: true,
  updatedSequence: true,
} as const;

/** `threads` rows with the listing columns a page continues from. */
type ThreadRecord = ProjectionRecord & { activeAt: string | null; title: string | null };
type ThreadsModel = {
  findMany(args: {
    where: Where;
    orderBy: Order;
    take: number;
    select: typeof PAGE_SELECT;
  }): Promise<ThreadRecord[]>;
};

const PAGE_SELECT = { ...SELECT, activeAt: true, title: true } as const;

type TitlesModel = {
  findMany(args: {
    where: Where;
    orderBy?: { id: "asc" };
    skip?: number;
    take: number;
    select: { title: true };
  }): Promise<{ title: string | null }[]>;
};

type PortsModel = {
  findMany(args: {
    where: Where;
    distinct: ["port"];
    orderBy: { port: "asc" };
    select: { port: true };
  }): Promise<{ port: number }[]>;
};

type IdsModel = {
  findMany(args: {
    where: Where;
    orderBy: { id: "asc" };
    select: { id: true };
  }): Promise<{ id: string }[]>;
};

/** Titles read per page when Prisma counts a fork's siblings. */
const TITLE_PAGE = 1_000;

export type PrismaProjectionOptions = {
  /**
   * Title search differs by database. PostgreSQL: Prisma's `contains` is a LIKE whose wildcards
   * it does not escape, so they are escaped here (backslash, PostgreSQL's default escape), and
   * `mode: "insensitive"` makes it ILIKE. SQLite: its LIKE folds ASCII case already, but has no
   * escape character unless the statement names one, which Prisma's does not: a query holding
   * `%` or `_` is matched as a pattern and each row checked again here.
   */
  provider: "sqlite" | "postgres";
};

/** `turn_items` → `turnItems`: the generated clients name a model's delegate after the model. */
function delegateName(table: ProjectionTable): string {
  return table.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function toRow(record: ProjectionRecord): ProjectionRow {
  return {
    id: record.id,
    threadId: record.threadId,
    sortKey: record.sortKey,
    runOrdinal: record.runOrdinal,
    status: record.status,
    data: JSON.parse(record.data),
    updatedSequence: Number(record.updatedSequence),
  };
}

/** The store's filter as a Prisma `where` (the same semantics as the SQL readers' clauses). */
function whereOf(filter: Omit<ProjectionFilter, "limit">): Where {
  const and: Where[] = [];
  if (filter.threadId !== undefined) and.push({ threadId: filter.threadId });
  if (typeof filter.status === "string") and.push({ status: filter.status });
  else if (filter.status !== undefined) and.push({ status: { in: [...filter.status] } });
  if (filter.maxSortKey !== undefined) and.push({ sortKey: { lte: filter.maxSortKey } });
  if (filter.minSortKey !== undefined) and.push({ sortKey: { gte: filter.minSortKey } });
  if (filter.maxRunOrdinal !== undefined) {
    and.push({ OR: [{ runOrdinal: null }, { runOrdinal: { lte: filter.maxRunOrdinal } }] });
  }
  if (filter.minRunOrdinal !== undefined) {
    and.push({ OR: [{ runOrdinal: null }, { runOrdinal: { gte: filter.minRunOrdinal } }] });
  }
  if (filter.runOrdinal !== undefined) and.push({ runOrdinal: filter.runOrdinal });
  return { AND: and };
}

function pageWhere(filter: ThreadPageFilter, options: PrismaProjectionOptions): Where {
  const and: Where[] = [{ visibility: filter.visibility }];
  if (filter.projectId !== undefined) and.push({ projectId: filter.projectId });
  if (filter.after !== undefined) {
    const { activeAt, id } = filter.after;
    and.push({ OR: [{ activeAt: { lt: activeAt } }, { activeAt, id: { lt: id } }] });
  }
  if (filter.query !== undefined && filter.query !== "") {
    and.push({
      title:
        options.provider === "postgres"
          ? { contains: escapeLike(filter.query), mode: "insensitive" }
          : { contains: filter.query },
    });
  }
  return { AND: and };
}

/** SQLite's LIKE: a substring, ASCII letters in either case, every other character as itself. */
function likeMatches(title: string | null, query: string): boolean {
  const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return title !== null && fold(title).includes(fold(query));
}

/**
 * The store's ProjectionQuery answered by a generated Prisma client (inside one of its
 * transactions, which gives the reads their common instant). The callers' read models run
 * unchanged over it; the rows are the SQL readers' rows.
 */
export function prismaProjectionQuery(
  client: object,
  options: PrismaProjectionOptions,
): ProjectionQuery {
  // Both clients' delegates take these arguments; their generated generics are not written
  // against one type, so the delegate is reached by name and used through its common part.
  const delegates = client as Record<string, ProjectionModel>;
  const model = (table: ProjectionTable): ProjectionModel => {
    if (!isProjectionTable(table)) throw new Error(`unknown projection table ${String(table)}`);
    return delegates[delegateName(table)] as ProjectionModel;
  };
  return {
    async get(table, id) {
      const record = await model(table).findUnique({ where: { id }, select: SELECT });
      return record === null ? undefined : toRow(record);
    },
    async list(table, filter = {}) {
      const direction = filter.descending ? "desc" : "asc";
      const records = await model(table).findMany({
        where: whereOf(filter),
        orderBy: [{ sortKey: direction }, { id: direction }],
        ...(filter.limit === undefined ? {} : { take: filter.limit }),
        select: SELECT,
      });
      return records.map(toRow);
    },
    async count(table, filter = {}) {
      return model(table).count({ where: whereOf(filter) });
    },
    async threadPage(filter) {
      const threads = model("threads") as unknown as ThreadsModel;
      const page = (after: ThreadPageFilter["after"]) =>
        threads.findMany({
          where: pageWhere({ ...filter, ...(after ? { after } : {}) }, options),
          orderBy: [{ activeAt: "desc" }, { id: "desc" }],
          take: filter.limit,
          select: PAGE_SELECT,
        });
      const query = filter.query ?? "";
      if (options.provider === "postgres" || !/[%_]/.test(query)) {
        return (await page(filter.after)).map(toRow);
      }
      // The pattern matched a superset; pages are read on until the rows that really hold the
      // query fill this one (or the list ends).
      const rows: ProjectionRow[] = [];
      let after = filter.after;
      for (;;) {
        const records = await page(after);
        for (const record of records) {
          if (likeMatches(record.title, query)) rows.push(toRow(record));
        }
        const last = records.at(-1);
        if (rows.length >= filter.limit || records.length < filter.limit || !last) break;
        after = { activeAt: last.activeAt ?? "", id: last.id };
      }
      return rows.slice(0, filter.limit);
    },
    async highestSibling(filter) {
      const threads = model("threads") as unknown as TitlesModel;
      // `startsWith` is a LIKE: unescaped wildcards and, on SQLite, ASCII case folding make it a
      // superset, narrowed by `highestSiblingOf`. Prisma has no form for the SQL readers' number
      // parsing, so the titles come back whole, in bounded pages.
      const where = {
        AND: [
          { projectId: filter.projectId },
          { visibility: { in: ["active", "archived"] } },
          { OR: [{ title: filter.stem }, { title: { startsWith: `${filter.stem} (` } }] },
        ],
      };
      let highest = 0;
      for (let skip = 0; ; skip += TITLE_PAGE) {
        const records = await threads.findMany({
          where,
          orderBy: { id: "asc" },
          skip,
          take: TITLE_PAGE,
          select: { title: true },
        });
        const titles = records.map((record) => record.title ?? "");
        highest = Math.max(highest, highestSiblingOf(titles, filter.stem));
        if (records.length < TITLE_PAGE) return highest;
      }
    },
    async titleTaken(filter) {
      const threads = model("threads") as unknown as TitlesModel;
      const [record] = await threads.findMany({
        where: {
          projectId: filter.projectId,
          title: filter.title,
          visibility: { in: ["active", "archived"] },
        },
        take: 1,
        select: { title: true },
      });
      return record !== undefined;
    },
    async portsHeld(filter) {
      const threads = model("threads") as unknown as PortsModel;
      const records = await threads.findMany({
        where: {
          visibility: "active",
          port: { gte: filter.from, lte: filter.to },
          id: { not: filter.except ?? "" },
        },
        distinct: ["port"],
        orderBy: { port: "asc" },
        select: { port: true },
      });
      return records.map((record) => record.port);
    },
    async subagentChildren(threadId) {
      const threads = model("threads") as unknown as IdsModel;
      const records = await threads.findMany({
        where: { subagentOf: threadId, visibility: { not: "deleted" } },
        orderBy: { id: "asc" },
        select: { id: true },
      });
      return records.map((record) => record.id);
    },
    // Issue 29: a full-text index query has no Prisma form; the SQL readers' statement runs raw.
    async messageThreadPage(filter) {
      const raw = client as RawQueries;
      const rows = async (sql: string, values: unknown[]) =>
        (await raw.$queryRawUnsafe(sql, ...values)).map((row) => Object.values(row));
      if (options.provider === "postgres") return pgMessageThreadPage(rows, filter);
      const { sql, values } = messageSearchSql(filter);
      return toMessageThreadRows(await rows(sql, values));
    },
  };
}

/** The raw query both generated clients (and their transactions) offer. */
type RawQueries = {
  $queryRawUnsafe(sql: string, ...values: unknown[]): Promise<Record<string, unknown>[]>;
};
