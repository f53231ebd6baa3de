import { Graph, layout } from "@dagrejs/dagre";
import type { GraphModel } from "./graph-model.ts";

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 60;
const GAP_X = 28;
const GAP_Y = 28;
/** Past this many, leaf child threads go into a grid instead of one endless layer. */
const FAN_OUT_GRID = 6;
const GRID_COLUMNS = 8;

export type Positioned = { id: string; x: number; y: number };

/**
 * Layered top-down layout (dagre): runs follow each other downwards, each run's attempts and
 * their provider threads beside it, transfers between their source and the run they fed. Many
 * forks or subagents of the thread (leaves with no other link) would make one layer hundreds
 * of nodes wide, so they are set in a grid beside the layered part. Positions are top-left
 * corners, as React Flow expects.
 */
export function layoutGraph(model: GraphModel): Map<string, Positioned> {
  const degree = new Map<string, number>();
  for (const e of model.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const self = model.nodes.find((n) => n.current)?.id;
  const childOfSelf = new Set(model.edges.filter((e) => e.source === self).map((e) => e.target));
  let satellites = model.nodes.filter(
    (n) => n.kind === "thread" && !n.current && childOfSelf.has(n.id) && degree.get(n.id) === 1,
  );
  if (satellites.length <= FAN_OUT_GRID) satellites = [];
  const gridIds = new Set(satellites.map((n) => n.id));

  const g = new Graph({ multigraph: false });
  g.setGraph({ rankdir: "TB", nodesep: GAP_X, ranksep: 48, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of model.nodes) {
    if (!gridIds.has(node.id)) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  for (const edge of model.edges) {
    if (!gridIds.has(edge.source) && !gridIds.has(edge.target)) g.setEdge(edge.source, edge.target);
  }
  layout(g);
  const out = new Map<string, Positioned>();
  let right = 0;
  let top = Number.POSITIVE_INFINITY;
  for (const node of model.nodes) {
    if (gridIds.has(node.id)) continue;
    const placed = g.node(node.id) as { x: number; y: number } | undefined;
    const x = (placed?.x ?? 0) - NODE_WIDTH / 2;
    const y = (placed?.y ?? 0) - NODE_HEIGHT / 2;
    out.set(node.id, { id: node.id, x, y });
    right = Math.max(right, x + NODE_WIDTH);
    top = Math.min(top, y);
  }
  satellites.forEach((node, i) => {
    out.set(node.id, {
      id: node.id,
      x: right + 80 + (i % GRID_COLUMNS) * (NODE_WIDTH + GAP_X),
      y: (Number.isFinite(top) ? top : 0) + Math.floor(i / GRID_COLUMNS) * (NODE_HEIGHT + GAP_Y),
    });
  });
  return out;
}
