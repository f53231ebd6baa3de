import { describe, expect, it } from "vitest";
import { NODE_HEIGHT, NODE_WIDTH, layoutGraph } from "./graph-layout.ts";
import { buildGraphModel } from "./graph-model.ts";
import type { ThreadGraph } from "./types.ts";

const thread = { id: "thr_main", title: "Main", lineage: null };

function graphOf(runCount: number): ThreadGraph {
  const runs = Array.from({ length: runCount }, (_, i) => ({
    run: {
      id: `run_${i + 1}`,
      ordinal: i + 1,
      provider: i % 2 === 0 ? "codex" : "claude",
      model: null,
      status: "completed",
      checkpointId: i === 0 ? "ckpt_1" : null,
    },
    attempts: [
      {
        attempt: {
          id: `att_${i + 1}`,
          attemptOrdinal: 1,
          reason: "initial",
          status: "completed",
          providerThreadId: i % 2 === 0 ? "pth_codex" : "pth_claude",
        },
        providerTurn: null,
        root: null,
      },
    ],
  }));
  return {
    thread,
    runs,
    providerThreads: [
      {
        id: "pth_codex",
        provider: "codex",
        nativeThreadRef: "n1",
        status: "idle",
        forkedFrom: null,
      },
      {
        id: "pth_claude",
        provider: "claude",
        nativeThreadRef: "n2",
        status: "idle",
        forkedFrom: null,
      },
    ],
    transfers: [
      {
        id: "ctx_switch",
        type: "provider_handoff",
        sourceThreadId: "thr_main",
        targetThreadId: "thr_main",
        sourcePoint: { threadId: "thr_main", runId: "run_1" },
        status: "resolved_portable",
        targetProvider: "claude",
        targetRunId: "run_2",
        consumedByRunId: "run_2",
      },
    ],
    handoffs: [],
  } as unknown as ThreadGraph;
}

describe("buildGraphModel", () => {
  it("links thread → runs in order → attempts → provider threads, transfers into their run, and forks", () => {
    const shells = new Map<string, unknown>([
      ["thr_main", thread],
      [
        "thr_fork",
        {
          id: "thr_fork",
          title: "Fork A",
          lineage: { parentThreadId: "thr_main", relationshipToParent: "fork" },
        },
      ],
    ]) as never;
    const model = buildGraphModel(graphOf(2), shells);
    const kinds = model.nodes.map((n) => `${n.kind}:${n.title}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        "thread:Main",
        "run:Run 1",
        "run:Run 2",
        "attempt:Attempt 1",
        "provider_thread:Codex thread",
        "provider_thread:Claude thread",
        "transfer:provider handoff",
        "thread:Fork A",
      ]),
    );
    const edges = model.edges.map((e) => `${e.source}>${e.target}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        "thread:thr_main>run:run_1",
        "run:run_1>run:run_2",
        "run:run_1>attempt:att_1",
        "attempt:att_1>pt:pth_codex",
        "attempt:att_2>pt:pth_claude",
        "run:run_1>transfer:ctx_switch",
        "transfer:ctx_switch>run:run_2",
        "thread:thr_main>thread:thr_fork",
      ]),
    );
    // Every edge joins two drawn nodes; clicks go to the run's diff when it has a checkpoint.
    // Later attempts on an already-drawn provider thread name it instead of linking across runs.
    expect(model.edges.filter((e) => e.target === "pt:pth_codex")).toHaveLength(1);
    const ids = new Set(model.nodes.map((n) => n.id));
    for (const e of model.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    expect(model.nodes.find((n) => n.id === "run:run_1")?.href).toBe(
      "/threads/thr_main/review?run=run_1",
    );
    expect(model.nodes.find((n) => n.id === "transfer:ctx_switch")?.href).toBe(
      "/threads/thr_main/handoffs#ctx_switch",
    );
  });

  it("lays out 200+ nodes without two nodes overlapping", () => {
    const model = buildGraphModel(graphOf(100), new Map());
    expect(model.nodes.length).toBeGreaterThanOrEqual(200);
    const boxes = [...layoutGraph(model).values()];
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (Math.abs(a.x - b.x) < NODE_WIDTH && Math.abs(a.y - b.y) < NODE_HEIGHT) {
          overlaps.push(`${a.id}/${b.id}`);
        }
      }
    }
    expect(overlaps).toEqual([]);
  });

  it("sets many forks in a grid beside the runs instead of one endless row", () => {
    const shells = new Map<string, unknown>(
      Array.from({ length: 190 }, (_, i) => [
        `thr_f${i}`,
        {
          id: `thr_f${i}`,
          title: `Fork ${i}`,
          lineage: { parentThreadId: "thr_main", relationshipToParent: "fork" },
        },
      ]),
    );
    const model = buildGraphModel(graphOf(3), shells as never);
    const boxes = [...layoutGraph(model).values()];
    const width = Math.max(...boxes.map((b) => b.x)) - Math.min(...boxes.map((b) => b.x));
    const height = Math.max(...boxes.map((b) => b.y)) - Math.min(...boxes.map((b) => b.y));
    expect(width).toBeLessThan(12 * NODE_WIDTH);
    expect(height).toBeLessThan(40 * NODE_HEIGHT);
    const seen = new Set(boxes.map((b) => `${b.x},${b.y}`));
    expect(seen.size).toBe(boxes.length);
  });
});
