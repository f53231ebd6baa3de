import { PROVIDER_LABEL, shortId, words } from "./format.ts";
import type { ThreadGraph, ThreadShell } from "./types.ts";

export type GraphNodeKind = "thread" | "run" | "attempt" | "provider_thread" | "transfer";

export type GraphNodeModel = {
  id: string;
  kind: GraphNodeKind;
  title: string;
  detail: string;
  status: string | null;
  /** Where a click on the node goes. */
  href: string;
  /** The open thread itself (drawn emphasized). */
  current?: boolean;
};

export type GraphEdgeModel = { id: string; source: string; target: string; label?: string };

export type GraphModel = { nodes: GraphNodeModel[]; edges: GraphEdgeModel[] };

/**
 * The node-link picture of one thread (P3): the thread, its runs in order, each run's attempts,
 * the provider threads those attempts ran on, transfers into the thread (from the run or thread
 * they came from, to the run that consumed them) and the threads forked or spawned from it.
 */
export function buildGraphModel(
  graph: ThreadGraph,
  shells: ReadonlyMap<string, Pick<ThreadShell, "id" | "title" | "lineage">>,
): GraphModel {
  const threadId = graph.thread.id;
  const base = `/threads/${encodeURIComponent(threadId)}`;
  const nodes = new Map<string, GraphNodeModel>();
  const edges: GraphEdgeModel[] = [];
  const edge = (source: string, target: string, label?: string) => {
    if (!nodes.has(source) || !nodes.has(target)) return;
    edges.push({ id: `${source}->${target}`, source, target, ...(label ? { label } : {}) });
  };
  const threadNode = (id: string, relation: string | null): string => {
    const key = `thread:${id}`;
    if (!nodes.has(key)) {
      const title = id === threadId ? graph.thread.title : (shells.get(id)?.title ?? shortId(id));
      nodes.set(key, {
        id: key,
        kind: "thread",
        title,
        detail: id === threadId ? "this thread" : (relation ?? "thread"),
        status: null,
        href: `/threads/${encodeURIComponent(id)}`,
        ...(id === threadId ? { current: true } : {}),
      });
    }
    return key;
  };
  const self = threadNode(threadId, null);

  for (const pt of graph.providerThreads) {
    nodes.set(`pt:${pt.id}`, {
      id: `pt:${pt.id}`,
      kind: "provider_thread",
      title: `${PROVIDER_LABEL[pt.provider]} thread`,
      detail: pt.nativeThreadRef ? shortId(pt.nativeThreadRef) : shortId(pt.id),
      status: pt.status,
      href: base,
    });
  }

  let previous = self;
  const linked = new Set<string>();
  for (const { run, attempts } of graph.runs) {
    const runKey = `run:${run.id}`;
    const runHref = run.checkpointId ? `${base}/review?run=${encodeURIComponent(run.id)}` : base;
    nodes.set(runKey, {
      id: runKey,
      kind: "run",
      title: `Run ${run.ordinal}`,
      detail: `${PROVIDER_LABEL[run.provider]}${run.model ? ` · ${run.model}` : ""}`,
      status: run.status,
      href: runHref,
    });
    edge(previous, runKey, previous === self ? undefined : "then");
    previous = runKey;
    for (const { attempt } of attempts) {
      const key = `attempt:${attempt.id}`;
      const pt = `pt:${attempt.providerThreadId}`;
      const first = !linked.has(pt);
      nodes.set(key, {
        id: key,
        kind: "attempt",
        title: `Attempt ${attempt.attemptOrdinal}`,
        detail: first
          ? words(attempt.reason)
          : `${words(attempt.reason)} · on ${nodes.get(pt)?.detail ?? "its provider thread"}`,
        status: attempt.status,
        href: runHref,
      });
      edge(runKey, key);
      // Only the attempt that opened a provider thread links to it: an edge from every later
      // attempt would span the whole run chain, tangling the picture and slowing the layout.
      if (first && nodes.has(pt)) {
        linked.add(pt);
        edge(key, pt, "opened");
      }
    }
  }

  for (const pt of graph.providerThreads) {
    if (pt.forkedFrom) edge(`pt:${pt.forkedFrom.providerThreadId}`, `pt:${pt.id}`, "native fork");
  }

  for (const transfer of graph.transfers) {
    const key = `transfer:${transfer.id}`;
    nodes.set(key, {
      id: key,
      kind: "transfer",
      title: words(transfer.type),
      detail: [
        words(transfer.status),
        transfer.targetProvider ? `to ${PROVIDER_LABEL[transfer.targetProvider]}` : null,
      ]
        .filter(Boolean)
        .join(" · "),
      status: transfer.status,
      href: `/threads/${encodeURIComponent(transfer.targetThreadId)}/handoffs#${encodeURIComponent(transfer.id)}`,
    });
    const sourceRun = transfer.sourcePoint.runId ? `run:${transfer.sourcePoint.runId}` : null;
    const source =
      sourceRun && nodes.has(sourceRun)
        ? sourceRun
        : threadNode(
            transfer.sourceThreadId,
            transfer.sourceThreadId === threadId ? null : "source",
          );
    edge(source, key);
    const targetRun = transfer.consumedByRunId ?? transfer.targetRunId;
    edge(key, targetRun && nodes.has(`run:${targetRun}`) ? `run:${targetRun}` : self);
  }

  for (const shell of shells.values()) {
    if (shell.lineage?.parentThreadId !== threadId) continue;
    const relation = shell.lineage.relationshipToParent ?? "child";
    edge(self, threadNode(shell.id, relation), relation);
  }
  return { nodes: [...nodes.values()], edges };
}
