import { describe, expect, it } from "vitest";
import { buildHandoff } from "../build-handoff.ts";
import type { Run, TurnItem } from "../inputs.ts";

/** A thread whose runs say `texts` (the person) with a plain reply each. */
function thread(texts: readonly string[], extra: (ordinal: number) => TurnItem[] = () => []) {
  const runs: Run[] = texts.map((_, i) => ({
    id: `run_${i + 1}`,
    threadId: "thr_t",
    ordinal: i + 1,
    provider: "codex",
    providerThreadId: "pth_t",
    status: "completed",
  }));
  const turnItems: TurnItem[] = texts.flatMap((text, i) => [
    { id: `itm_${i}_u`, runId: `run_${i + 1}`, type: "user_message", status: "completed", text },
    ...extra(i + 1),
    {
      id: `itm_${i}_a`,
      runId: `run_${i + 1}`,
      type: "assistant_message",
      status: "completed",
      text: "ok",
    },
  ]);
  return buildHandoff({
    strategy: "full_thread_summary",
    transfer: {
      id: "ctx_t",
      type: "provider_handoff",
      sourceThreadId: "thr_t",
      targetThreadId: "thr_t",
    },
    selection: [{ threadId: "thr_t", ordinals: runs.map((r) => r.ordinal) }],
    runs,
    turnItems,
    targetProvider: "claude",
    historyTool: true,
  });
}

function section(text: string, title: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(title));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe("B13: the structured brief", () => {
  it("B13: keeps the person's decisions, constraints, preferences and tasks, each citing its run", () => {
    const { summaryText, payload } = thread([
      "Set up the repo please.",
      "We'll use Postgres for the orders database.",
      "Looks good. The customer requires that exports stay under 5 MB.",
      "I'd rather we keep every module under 300 lines.",
      "We still need to write the backfill script.",
      "Thanks, continue.",
    ]);
    expect(section(summaryText, "## Decisions in force")).toEqual([
      "- We'll use Postgres for the orders database. (run 2, the person)",
    ]);
    expect(section(summaryText, "## Constraints in force")).toEqual([
      "- The customer requires that exports stay under 5 MB. (run 3, the person)",
    ]);
    expect(section(summaryText, "## Preferences")).toEqual([
      "- I'd rather we keep every module under 300 lines. (run 4, the person)",
    ]);
    expect(section(summaryText, "## Open tasks")).toEqual([
      "- We still need to write the backfill script. (run 5, the person)",
    ]);
    expect(payload.brief?.decisions[0]).toMatchObject({ run: { threadId: "thr_t", ordinal: 2 } });
    expect(summaryText).toContain("skein_history");
  });

  it("B13: a reversed decision, a closed task and a lifted constraint are not presented as current", () => {
    const { summaryText } = thread([
      "Let's go with Redis for the session cache.",
      "The firmware must never depend on libfoo.",
      "TODO: migrate the billing cron.",
      "Changed my mind: use Memcached instead of Redis for the session cache.",
      "The billing cron migration is done.",
      "The libfoo constraint no longer applies.",
    ]);
    const current = ["## Decisions in force", "## Constraints in force", "## Open tasks"].flatMap(
      (title) => section(summaryText, title),
    );
    expect(current.join("\n")).not.toMatch(/Let's go with Redis|must never depend|TODO: migrate/);
    expect(current).toContain(
      "- Changed my mind: use Memcached instead of Redis for the session cache. (run 4, the person)",
    );
    const closed = section(summaryText, "## No longer current").join("\n");
    expect(closed).toContain("Let's go with Redis for the session cache. (run 1; closed in run 4)");
    expect(closed).toContain("TODO: migrate the billing cron. (run 3; closed in run 5)");
    expect(closed).toContain("must never depend on libfoo. (run 2; closed in run 6)");
  });

  it("B13: todo lists (E17), files (latest diff only) and failed commands not fixed since", () => {
    const items = (ordinal: number): TurnItem[] => {
      const id = (k: string) => `itm_${ordinal}_${k}`;
      const runId = `run_${ordinal}`;
      const out: TurnItem[] = [
        {
          id: id("f"),
          runId,
          type: "file_change",
          status: "completed",
          fileName: "src/limit.ts",
          additions: 1,
          deletions: 1,
          diffStr: `-LIMIT = ${ordinal - 1}\n+LIMIT = ${ordinal}`,
        },
      ];
      const todoList = (parser: "pending" | "completed"): TurnItem => ({
        id: id("p"),
        runId,
        type: "plan",
        kind: "todo_list",
        status: "completed",
        steps: [
          { id: "a", text: "Port the parser", status: parser },
          { id: "b", text: "Write the changelog", status: "pending" },
        ],
      });
      const command = (k: string, input: string, exitCode: number, output: string): TurnItem => ({
        id: id(k),
        runId,
        type: "command_execution",
        status: exitCode === 0 ? "completed" : "failed",
        input,
        output,
        exitCode,
      });
      // Run 1: the todo list starts, the build and the lint fail; run 2: the parser is
      // ported and the build passes; run 3 only edits the file.
      if (ordinal === 1) {
        out.push(
          todoList("pending"),
          command("c", "pnpm build", 2, "TS2322 in parser.ts"),
          command("d", "pnpm lint", 1, "lint broke"),
        );
      }
      if (ordinal === 2) out.push(todoList("completed"), command("c", "pnpm build", 0, "ok"));
      return out;
    };
    const { summaryText } = thread(["Start.", "Go on.", "And on."], items);
    expect(section(summaryText, "## Open tasks")).toEqual([
      "- Write the changelog (run 1, todo list, pending)",
    ]);
    const code = section(summaryText, "## State of the code").join("\n");
    expect(code).toContain("- src/limit.ts +3 -3 (3 changes, last in run 3)");
    expect(code).toContain("+LIMIT = 3");
    expect(code).not.toContain("+LIMIT = 2");
    const errors = section(summaryText, "## Recent errors").join("\n");
    expect(errors).toContain("`pnpm lint` → exit 1 (run 1)");
    expect(errors).not.toContain("pnpm build");
  });

  it("B13: the brief stays within its share and says how much it left out", () => {
    const texts = Array.from(
      { length: 600 },
      (_, i) => `We decided to use engine-${i} for subsystem-${i} in module-${i}.`,
    );
    const build = thread(texts);
    expect(build.tokens.summary).toBeLessThanOrEqual(16_000);
    const left = build.payload.brief?.left.decisions ?? 0;
    expect(left).toBeGreaterThan(0);
    expect(build.payload.brief?.decisions.length).toBe(600 - left);
    expect(build.summaryText).toMatch(
      new RegExp(
        `\\(\\+${left} older items left out for length: search them with skein_history\\)`,
      ),
    );
    // The newest stays.
    expect(build.summaryText).toContain("engine-599");
  });

  it("B13: the last exchange is the person's, never a compaction run's /compact request", () => {
    const compaction = (ordinal: number): TurnItem[] =>
      ordinal === 2
        ? [{ id: "itm_c", runId: "run_2", type: "compaction", status: "completed" }]
        : [];
    const { summaryText } = thread(["Our goal is a faster parser.", "/compact"], compaction);
    const exchange = section(summaryText, "## Last exchange");
    expect(exchange).toContain("[the person] Our goal is a faster parser.");
    expect(exchange.join("\n")).not.toContain("/compact");
  });

  it("B13: the same runs give byte-identical text", () => {
    const texts = ["We'll use Kafka for events.", "Remember to add metrics.", "ok"];
    expect(thread(texts).summaryText).toBe(thread(texts).summaryText);
  });
});
