import { describe, expect, it } from "vitest";
import {
  askUserAnswers,
  completionFields,
  itemKindForTool,
  questionsOf,
  requestKindForTool,
  todoSteps,
} from "./tool-kinds.ts";

describe("tool kinds (E15, E17)", () => {
  it("maps tool names to item and request kinds", () => {
    expect(
      ["Bash", "Edit", "Write", "Read", "WebSearch", "Agent", "Task", "mcp__x__y"].map(
        itemKindForTool,
      ),
    ).toEqual([
      "command_execution",
      "file_change",
      "file_change",
      "file_search",
      "web_search",
      "subagent",
      "subagent",
      "dynamic_tool",
    ]);
    expect(["Bash", "Edit", "Read", "AskUserQuestion", "WebFetch"].map(requestKindForTool)).toEqual(
      ["command", "file-change", "file-read", "user_input", "dynamic_tool_call"],
    );
  });

  it("renders an Edit's structured patch as a diff", () => {
    const fields = completionFields(
      "Edit",
      { changes: [{ path: "/f", kind: "update" }] },
      {
        filePath: "/f",
        structuredPatch: [{ oldStart: 1, newStart: 1, lines: ["-old", "+new", " same"] }],
      },
      "updated",
    );
    expect(fields.changes).toEqual([
      {
        path: "/f",
        kind: "update",
        diff: "@@ -1 +1 @@\n-old\n+new\n same",
        additions: 1,
        deletions: 1,
      },
    ]);
  });

  it("reads Bash output from the structured result, else from the text", () => {
    const start = { command: "ls", cwd: "/" };
    expect(completionFields("Bash", start, { stdout: "a", stderr: "b" }, "x").output).toBe("a\nb");
    expect(completionFields("Bash", start, undefined, "plain").output).toBe("plain");
  });

  it("gives every AskUserQuestion question its own id, and answers by id reach it by its text", () => {
    const input = {
      questions: [
        { question: "Which color?", header: "Style", options: [] },
        { question: "Which font?", header: "Style", options: [] },
        { question: "Which size?", header: "Size", options: [] },
      ],
    };
    expect(questionsOf(input).map((q) => q.id)).toEqual(["0", "1", "Size"]);
    expect(askUserAnswers(input, { "1": "Serif", Size: "Large" })).toEqual({
      "Which font?": "Serif",
      "Which size?": "Large",
    });
  });

  it("reads AskUserQuestion questions and TodoWrite steps", () => {
    expect(
      questionsOf({
        questions: [
          {
            question: "Which?",
            header: "pick",
            multiSelect: true,
            options: [{ label: "A", description: "a" }],
          },
        ],
      }),
    ).toEqual([
      {
        id: "pick",
        header: "pick",
        question: "Which?",
        multiSelect: true,
        options: [{ label: "A", description: "a" }],
      },
    ]);
    expect(
      todoSteps({
        todos: [
          { content: "one", status: "completed" },
          { content: "two", status: "in_progress" },
          { content: "three", status: "pending" },
        ],
      }),
    ).toEqual([
      { text: "one", status: "completed" },
      { text: "two", status: "running" },
      { text: "three", status: "pending" },
    ]);
  });
});
