import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";

let h: ClaudeSkeinHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** Project settings with command hooks, as a person would write them for Claude Code. */
function writeHooks(workspaceRoot: string, marker: string): void {
  const hook = { type: "command", command: `echo ${marker} >> .hook-runs` };
  const settings = {
    hooks: {
      UserPromptSubmit: [{ hooks: [hook] }],
      Stop: [{ hooks: [{ type: "command", command: "exit 1" }] }],
    },
  };
  mkdirSync(join(workspaceRoot, ".claude"), { recursive: true });
  writeFileSync(join(workspaceRoot, ".claude", "settings.json"), JSON.stringify(settings));
}

describe("hook nodes (issue 33 item 5, real Claude Agent SDK)", () => {
  it("E5/E18: the hooks Claude Code runs become hook nodes under the run, with Claude's own (strong) ids and their outcome", async () => {
    const x = await createClaudeSkeinHarness();
    h = x;
    writeHooks(x.workspaceRoot, "prompt-hook");
    x.anthropic.enqueue(anthropicTextReply("hooked answer"));
    const threadId = await x.createThread();
    const { runId, state } = await x.send(threadId, "hello with hooks");
    expect(state.runs.get(runId)?.status).toBe("completed");

    const run = state.runs.get(runId)!;
    const hooks = [...state.nodes.values()].filter((n) => n.kind === "hook" && n.runId === runId);
    const bySummary = new Map(hooks.map((n) => [n.summary?.split(":")[0], n]));
    expect([...bySummary.keys()].sort()).toEqual(["Stop", "UserPromptSubmit"]);
    const prompt = bySummary.get("UserPromptSubmit")!;
    const stop = bySummary.get("Stop")!;
    // Under the run's root node, on its turn, ended as the hook ended (`exit 1` is an error).
    const rootNodeId = [...state.attempts.values()].find((a) => a.runId === run.id)?.rootNodeId;
    for (const node of [prompt, stop]) {
      expect(node.parentNodeId).toBe(rootNodeId);
      expect(node.nativeItemRef).toMatch(/^hook:/);
      expect(node.nativeRefStrength).toBe("strong");
      expect(node.providerTurnId).not.toBeNull();
    }
    expect(prompt.status).toBe("completed");
    expect(stop.status).toBe("failed");
    // Hooks are graph nodes, not conversation: no turn item shows them.
    const items = [...state.turnItems.values()].map((e) => e.item);
    expect(items.some((i) => i.nodeId === prompt.id || i.nodeId === stop.id)).toBe(false);
  });
});
