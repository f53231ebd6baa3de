import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicBashReply, anthropicTaskReply, anthropicTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const SLOW = 120_000;
const harness = useClaudeSkeinHarness();

describe("child checkpoint scopes (issue 33 item 4, real Claude Agent SDK)", () => {
  it(
    "E6/E7: an Agent sub-agent's work is a child scope under the run's root scope with its own checkpoint; restoring it alone keeps the runs",
    async () => {
      const h = await harness();
      h.anthropic.enqueue(
        anthropicTaskReply("Write sub.txt", { description: "writer" }),
        anthropicBashReply("echo PARENT > parent.txt"),
        anthropicTextReply("parent done"),
      );
      h.anthropic.enqueueSubagent(
        anthropicBashReply("echo SUB > sub.txt"),
        anthropicTextReply("child wrote it"),
      );
      const threadId = await h.createThread({ runtimeMode: "full-access" });
      const { runId, state } = await h.send(threadId, "delegate, then write parent.txt");
      expect(state.runs.get(runId)?.status).toBe("completed");

      const scopes = [...state.checkpointScopes.values()].filter((s) => s.runId === runId);
      const root = scopes.find((s) => s.kind === "root_run");
      const sub = scopes.find((s) => s.kind === "subagent");
      const spawner = [...state.nodes.values()].find((n) => n.kind === "subagent");
      expect(sub).toMatchObject({
        parentScopeId: root?.id,
        nodeId: spawner?.id,
        advancesAppRunCount: false,
      });
      const checkpoints = [...state.checkpoints.values()];
      const child = checkpoints.find((c) => c.scopeId === sub?.id);
      const own = checkpoints.find((c) => c.scopeId === root?.id);
      expect(child).toMatchObject({ status: "ready", appRunOrdinal: null });
      expect(child?.files.map((f) => f.path)).toEqual(["sub.txt"]);
      expect(own?.files.map((f) => f.path).sort()).toEqual(["parent.txt", "sub.txt"]);

      const result = await h.orchestrator.rollback({ threadId, checkpointId: child!.id });
      expect(result.files.map((f) => f.path)).toEqual(["parent.txt"]);
      expect(readFileSync(join(h.workspaceRoot, "sub.txt"), "utf8")).toBe("SUB\n");
      expect(existsSync(join(h.workspaceRoot, "parent.txt"))).toBe(false);
      const after = await h.orchestrator.repository.thread(threadId);
      expect(after.runs.get(runId)?.status).toBe("completed");
    },
    SLOW,
  );
});
