import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execCommandReply, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { helperAgent, helperRunsCommand } from "./support/subagent-children.ts";

const SLOW = 120_000;
const { parent } = helperAgent;

describe("child checkpoint scopes (issue 33 item 4, real Codex app-server, multi_agent_v2)", () => {
  const harness = useCodexSkeinHarness();

  it(
    "E6/E7: a sub-agent's work is a child scope under the run's root scope, with its own checkpoint; restoring it alone keeps the runs",
    async () => {
      const x = await harness({ features: { multi_agent_v2: true } });
      x.server.enqueue(
        ...helperRunsCommand("CHILD-TASK: write sub.txt", "echo SUB > sub.txt"),
        { ...execCommandReply("echo PARENT > parent.txt"), when: parent },
        { ...responsesTextReply("PARENT-DONE"), when: parent },
      );
      const threadId = await x.createThread({ runtimeMode: "full-access" });
      const { run } = await x.run(threadId, "delegate to a helper, then write parent.txt");
      expect(run.status).toBe("completed");

      const state = await x.thread(threadId);
      const scopes = [...state.checkpointScopes.values()].filter((s) => s.runId === run.id);
      const root = scopes.find((s) => s.kind === "root_run");
      const sub = scopes.find((s) => s.kind === "subagent");
      const spawner = [...state.nodes.values()].find((n) => n.kind === "subagent");
      expect(root).toMatchObject({ parentScopeId: null, advancesAppRunCount: true });
      // E6: the child scope nests under the run's root scope, at the node that spawned it.
      expect(sub).toMatchObject({
        parentScopeId: root?.id,
        nodeId: spawner?.id,
        ordinalWithinParent: 1,
        advancesAppRunCount: false,
      });
      const checkpoints = [...state.checkpoints.values()];
      const childCheckpoint = checkpoints.find((c) => c.scopeId === sub?.id);
      const rootCheckpoint = checkpoints.find((c) => c.scopeId === root?.id);
      // E7: the child checkpoint holds the sub-agent's file and never a run number.
      expect(childCheckpoint).toMatchObject({ status: "ready", appRunOrdinal: null });
      expect(childCheckpoint?.files.map((f) => f.path)).toEqual(["sub.txt"]);
      expect(rootCheckpoint).toMatchObject({ status: "ready", appRunOrdinal: run.ordinal });
      expect(rootCheckpoint?.files.map((f) => f.path).sort()).toEqual(["parent.txt", "sub.txt"]);
      expect(state.lastRootCheckpointId).toBe(rootCheckpoint?.id);

      // The conversation cannot go back to the middle of a run.
      await expect(
        x.orchestrator.rollback({
          threadId,
          checkpointId: childCheckpoint!.id,
          scope: "conversation",
        }),
      ).rejects.toThrow(/sub-agent's checkpoint .* holds files only/);

      // Restoring the child scope alone: the workspace as the sub-agent left it; runs go on.
      const result = await x.orchestrator.rollback({ threadId, checkpointId: childCheckpoint!.id });
      expect(result.files.map((f) => f.path)).toEqual(["parent.txt"]);
      expect(readFileSync(join(x.workspace, "sub.txt"), "utf8")).toBe("SUB\n");
      expect(existsSync(join(x.workspace, "parent.txt"))).toBe(false);
      const after = await x.thread(threadId);
      expect(after.runs.get(run.id)?.status).toBe("completed");
    },
    SLOW,
  );
});
