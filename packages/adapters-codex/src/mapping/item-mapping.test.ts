import { describe, expect, test } from "vitest";
import type { ThreadItem } from "../protocol/index.ts";
import { itemEndStatus, mapItem } from "./item-mapping.ts";

describe("mapItem", () => {
  test("command executions carry command, cwd, output and exit code once finished", () => {
    const item: ThreadItem = {
      type: "commandExecution",
      id: "call_1",
      pluginId: null,
      scriptPath: null,
      command: "/bin/bash -lc 'ls'",
      cwd: "/w",
      processId: null,
      source: "agent",
      status: "declined",
      commandActions: [],
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    };
    expect(mapItem(item)).toEqual({
      kind: "command_execution",
      fields: { command: "/bin/bash -lc 'ls'", cwd: "/w", exitCode: null },
    });
    expect(itemEndStatus(item)).toBe("declined");
  });

  test("B16: file changes count added and removed lines per Codex's diff format; an added file's content shows as added lines", () => {
    const item: ThreadItem = {
      type: "fileChange",
      id: "call_2",
      status: "completed",
      changes: [
        { path: "/w/new.txt", kind: { type: "add" }, diff: "one\ntwo\n" },
        {
          path: "/w/old.txt",
          kind: { type: "update", move_path: null },
          diff: "@@ -1 +1,2 @@\n-a\n+b\n+c\n",
        },
      ],
    };
    expect(mapItem(item)?.fields.changes).toEqual([
      { path: "/w/new.txt", kind: "add", diff: "+one\n+two", additions: 2, deletions: 0 },
      {
        path: "/w/old.txt",
        kind: "update",
        diff: "@@ -1 +1,2 @@\n-a\n+b\n+c\n",
        additions: 2,
        deletions: 1,
      },
    ]);
  });

  test("dynamic tool calls expose tool name, input and text result; unmodelled items are null", () => {
    const item: ThreadItem = {
      type: "dynamicToolCall",
      id: "call_3",
      namespace: null,
      tool: "skein_delegate",
      arguments: { task: "x" },
      status: "failed",
      contentItems: [{ type: "inputText", text: "no" }],
      success: false,
      durationMs: 1,
    };
    expect(mapItem(item)).toEqual({
      kind: "dynamic_tool",
      fields: { toolName: "skein_delegate", input: { task: "x" }, result: "no" },
    });
    expect(itemEndStatus(item)).toBe("failed");
    expect(mapItem({ type: "enteredReviewMode", id: "r", review: "x" })).toBeNull();
  });
});
