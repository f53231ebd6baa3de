import Link from "next/link";
import { ordinalRange, PROVIDER_LABEL, shortId, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadGraph } from "../../lib/types.ts";

/** Transfers into this thread drawn as edges: source thread ──type/status──▶ target thread. */
export function TransferEdges({ graph }: { graph: ThreadGraph }) {
  const { shells } = useShells();
  const name = (id: string) => shells.get(id)?.title ?? shortId(id);
  // Transfers live in their target's stream (design.md), so forks and subagents made from this
  // thread are found through the sidebar's lineage rows instead.
  const children = [...shells.values()].filter(
    (shell) => shell.lineage?.parentThreadId === graph.thread.id,
  );
  return (
    <section className="panel" aria-labelledby="graph-transfers">
      <h3 id="graph-transfers">Transfers</h3>
      {graph.transfers.length === 0 && <p className="muted">No transfers into this thread.</p>}
      <ul className="edges">
        {graph.transfers.map((transfer) => {
          const handoffs = graph.handoffs.filter((h) => h.transferId === transfer.id);
          return (
            <li key={transfer.id} className="edge" data-transfer-id={transfer.id}>
              <Link href={`/threads/${transfer.sourceThreadId}`}>
                {name(transfer.sourceThreadId)}
              </Link>
              <span className="edge-arrow" aria-hidden="true">
                {" "}
                ──
              </span>
              <span className="edge-label">
                {words(transfer.type)} · {words(transfer.status)}
                {transfer.resolution && ` · ${words(transfer.resolution.strategy)}`}
                {transfer.targetProvider && ` · to ${PROVIDER_LABEL[transfer.targetProvider]}`}
              </span>
              <span className="edge-arrow" aria-hidden="true">
                ──▶{" "}
              </span>
              <Link href={`/threads/${transfer.targetThreadId}`}>
                {name(transfer.targetThreadId)}
              </Link>
              {handoffs.length > 0 && (
                <ul className="graph-children">
                  {handoffs.map((h) => (
                    <li key={h.id}>
                      handoff <code>{shortId(h.id)}</code> · {words(h.strategy)} · {h.status} ·{" "}
                      {ordinalRange(h.coveredRunOrdinals)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {children.length > 0 && (
        <>
          <h4>Threads created from this one</h4>
          <ul className="edges">
            {children.map((child) => (
              <li key={child.id} className="edge" data-child-thread-id={child.id}>
                {name(graph.thread.id)}
                <span className="edge-arrow" aria-hidden="true">
                  {" "}
                  ──
                </span>
                <span className="edge-label">{child.lineage?.relationshipToParent ?? "child"}</span>
                <span className="edge-arrow" aria-hidden="true">
                  ──▶{" "}
                </span>
                <Link href={`/threads/${child.id}`}>{child.title}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
