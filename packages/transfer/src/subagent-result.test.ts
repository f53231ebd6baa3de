import { describe, expect, it } from "vitest";
import type { Run, TurnItem } from "./inputs.ts";
import { buildSubagentResult } from "./subagent-result.ts";

const run: Run = {
  id: "run_c1",
  threadId: "thr_child",
  ordinal: 1,
  provider: "claude",
  providerThreadId: "pth_c",
  status: "completed",
};
const item = (id: string, fields: Omit<TurnItem, "id" | "runId">): TurnItem => ({
  id,
  runId: "run_c1",
  ...fields,
});
const base = {
  transfer: {
    id: "ctx_r",
    type: "subagent_result" as const,
    sourceThreadId: "thr_child",
    targetThreadId: "thr_parent",
  },
  selection: [{ threadId: "thr_child", ordinals: [1] }],
  runs: [run],
  targetProvider: "codex" as const,
};

describe("T9: a subagent's result goes through the handoff builder", () => {
  it("T9: a plain answer reaches the parent as it is", () => {
    const result = buildSubagentResult({
      ...base,
      turnItems: [
        item("u", {
          type: "user_message",
          status: "completed",
          text: "We must answer fast. Compute it.",
        }),
        item("a", { type: "assistant_message", status: "completed", text: "42" }),
      ],
      answer: "42",
    });
    expect(result.text).toBe("42");
    expect(result.payload.manualText).toBe("42");
    expect(result.payload.coverage).toEqual([
      { threadId: "thr_child", runs: [{ from: 1, to: 1 }] },
    ]);
  });

  it("T9: what the child's run left (files, failures, open todo steps) follows the answer, citing its run", () => {
    const result = buildSubagentResult({
      ...base,
      turnItems: [
        item("u", { type: "user_message", status: "completed", text: "Port the parser." }),
        item("p", {
          type: "plan",
          kind: "todo_list",
          status: "completed",
          steps: [{ id: "1", text: "Port the lexer", status: "pending" }],
        }),
        item("c", {
          type: "command_execution",
          status: "failed",
          input: "pnpm test",
          output: "1 failed",
          exitCode: 1,
        }),
        item("f", {
          type: "file_change",
          status: "completed",
          fileName: "src/parser.ts",
          additions: 12,
          deletions: 3,
          diffStr: "+export function parse() {}",
        }),
        item("a", {
          type: "assistant_message",
          status: "completed",
          text: "Parser ported; lexer left.",
        }),
      ],
      answer: "Parser ported; lexer left.",
    });
    expect(
      result.text.startsWith("Parser ported; lexer left.\n\n---\nWhat the subagent's run left:\n"),
    ).toBe(true);
    expect(result.text).toContain("- src/parser.ts +12 -3 (1 change, last in run 1)");
    expect(result.text).toContain("`pnpm test` → exit 1 (run 1)");
    expect(result.text).toContain("- Port the lexer (run 1, todo list, pending)");
    expect(result.text).not.toContain("## Goal");
    expect(result.payload.brief?.files).toHaveLength(1);
  });
});
