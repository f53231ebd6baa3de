"use client";
import { Handle, type Node, type NodeProps, Position } from "@xyflow/react";
import Link from "next/link";
import { memo } from "react";
import type { GraphNodeModel } from "../../lib/graph-model.ts";

export type GraphCardNode = Node<{ model: GraphNodeModel }, "card">;

const KIND_LABEL = {
  thread: "Thread",
  run: "Run",
  attempt: "Attempt",
  provider_thread: "Provider thread",
  transfer: "Transfer",
} as const;

/** One graph node: its kind, title, status and a link to the item it stands for. */
export const GraphNodeCard = memo(function GraphNodeCard({ data }: NodeProps<GraphCardNode>) {
  const { model } = data;
  return (
    <div
      className={`graph-card graph-card-${model.kind}${model.current ? " graph-card-current" : ""}`}
      data-graph-kind={model.kind}
      data-graph-id={model.id}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="graph-card-kind">{KIND_LABEL[model.kind]}</span>
      <Link href={model.href} className="graph-card-title nodrag" prefetch={false}>
        {model.title}
      </Link>
      <span className="graph-card-detail">
        {model.status && <span className={`badge status-${model.status}`}>{model.status}</span>}{" "}
        {model.detail}
      </span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
