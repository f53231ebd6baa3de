import { type MemoryRows, memoryProjectionQuery, type ProjectionQuery } from "@skein/db";
import { describe, expect, it } from "vitest";
import { readUsageSummary } from "./usage-summary.ts";

type Row = NonNullable<ReturnType<MemoryRows["get"]>>;

const NOW = new Date("2026-12-07T12:00:00.000Z");
const usage = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 1,
  cachedInputTokens: 0,
  reasoningTokens: 0,
});

/** Thread `t<i>` with one run finished at `at` (and queued an hour before). */
function history(threads: { at: string; visibility?: "archived" | "deleted"; tokens: number }[]) {
  const rows = new Map<string, Row>();
  const set = (row: Row) => rows.set(`${row.table}/${row.id}`, row);
  threads.forEach(({ at, visibility, tokens }, i) => {
    const id = `t${String(i).padStart(4, "0")}`;
    const requestedAt = new Date(new Date(at).getTime() - 3_600_000).toISOString();
    set({
      table: "threads",
      id,
      threadId: id,
      sortKey: 0,
      runOrdinal: null,
      status: "idle",
      updatedSequence: i,
      data: {
        id,
        projectId: "p",
        title: `thread ${i}`,
        lastActivityAt: at,
        archivedAt: visibility === "archived" ? at : null,
        deletedAt: visibility === "deleted" ? at : null,
      },
    });
    set({
      table: "runs",
      id: `r${i}`,
      threadId: id,
      sortKey: 1,
      runOrdinal: 1,
      status: "completed",
      updatedSequence: i,
      data: {
        id: `r${i}`,
        threadId: id,
        provider: "codex",
        requestedAt,
        completedAt: at,
        usage: usage(tokens),
      },
    });
  });
  return rows;
}

/** The query, counting the threads whose runs were read. */
function counted(rows: MemoryRows) {
  const query = memoryProjectionQuery(rows);
  const runsReadOf = new Set<string>();
  const wrapped: ProjectionQuery = {
    ...query,
    list: (table, filter) => {
      if (table === "runs") runsReadOf.add(filter?.threadId ?? "(every thread)");
      return query.list(table, filter);
    },
  };
  return { query: wrapped, runsReadOf };
}

describe("B20 usage view reads the days it shows", () => {
  it("B20: sums the runs of the window's days over every visibility, past a page of threads, and never reads the runs of threads quiet since before it", async () => {
    const today = "2026-12-07T09:00:00.000Z";
    const yesterday = "2026-12-06T23:00:00.000Z";
    const lastMonth = "2026-11-01T10:00:00.000Z";
    const threads = [
      ...Array.from({ length: 300 }, () => ({ at: today, tokens: 1 })),
      { at: today, visibility: "archived" as const, tokens: 10 },
      { at: yesterday, visibility: "deleted" as const, tokens: 100 },
      ...Array.from({ length: 250 }, () => ({ at: lastMonth, tokens: 1_000 })),
    ];
    const { query, runsReadOf } = counted(history(threads));

    const twoDays = await readUsageSummary(query, 2, NOW);
    expect(twoDays.since).toBe("2026-12-06T00:00:00.000Z");
    expect(twoDays.totals).toEqual([
      { provider: "codex", runs: 302, usage: expect.objectContaining({ inputTokens: 410 }) },
    ]);
    expect(twoDays.rows).toHaveLength(302);
    expect(twoDays.rows.at(-1)).toMatchObject({ day: "2026-12-06", threadTitle: "thread 301" });
    expect(runsReadOf.size).toBe(302);
    expect(runsReadOf.has("(every thread)")).toBe(false);

    runsReadOf.clear();
    const today1 = await readUsageSummary(query, 1, NOW);
    expect(today1.totals[0]).toMatchObject({ runs: 301 });
    expect(runsReadOf.size).toBe(301);

    const month = await readUsageSummary(query, 40, NOW);
    expect(month.totals[0]).toMatchObject({ runs: 552 });
  });
});
