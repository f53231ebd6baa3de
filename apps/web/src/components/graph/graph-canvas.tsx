"use client";
import {
  Background,
  Controls,
  type Edge,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
} from "@xyflow/react";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from "../../lib/graph-layout.ts";
import type { GraphModel } from "../../lib/graph-model.ts";
import { type GraphCardNode, GraphNodeCard } from "./graph-node-card.tsx";
import "@xyflow/react/dist/style.css";
import "./graph.css";

const NODE_TYPES = { card: GraphNodeCard };
/** Above this many nodes the first view is a readable part of the graph, not all of it. */
const LARGE_GRAPH = 40;

/**
 * The thread as a node-link diagram (React Flow, dagre layout): zoom and pan with wheel, drag
 * and the controls, a minimap for large threads; clicking a node opens the item it stands for.
 */
export function GraphCanvas({ model }: { model: GraphModel }) {
  const router = useRouter();
  // Layout depends on the shape only; a status change re-renders without moving anything.
  const shape = `${model.nodes.map((n) => n.id).join()}|${model.edges.map((e) => e.id).join()}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by shape on purpose
  const positions = useMemo(() => layoutGraph(model), [shape]);
  const nodes: GraphCardNode[] = useMemo(
    () =>
      model.nodes.map((node) => ({
        id: node.id,
        type: "card",
        position: positions.get(node.id) ?? { x: 0, y: 0 },
        data: { model: node },
        // Known sizes let fitView frame every node before React Flow has measured them.
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        draggable: false,
        connectable: false,
        ariaLabel: `${node.kind.replace("_", " ")} ${node.title}`,
      })),
    [model, positions],
  );
  const edges: Edge[] = useMemo(
    () =>
      model.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        ...(edge.label ? { label: edge.label } : {}),
        markerEnd: { type: MarkerType.ArrowClosed },
        className: "graph-edge",
      })),
    [model],
  );
  // A large graph opens on the thread and its first runs at a readable zoom, not as specks;
  // "Fit view" and the minimap show the whole.
  const fitOptions = useMemo(() => {
    if (model.nodes.length <= LARGE_GRAPH) return { padding: 0.1, maxZoom: 1 };
    const focus = model.nodes.filter((n) => n.current || n.kind === "run").slice(0, 6);
    return { padding: 0.2, maxZoom: 1, minZoom: 0.6, nodes: focus.map((n) => ({ id: n.id })) };
  }, [model]);
  return (
    <div className="graph-canvas" data-node-count={nodes.length}>
      <ReactFlowProvider>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          fitView
          fitViewOptions={fitOptions}
          minZoom={0.05}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(event, node) => {
            // The title link handles its own clicks (and keyboard); the rest of the card too.
            if ((event.target as HTMLElement).closest("a")) return;
            router.push((node as GraphCardNode).data.model.href);
          }}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
          <MiniMap pannable zoomable ariaLabel="Graph overview" />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
