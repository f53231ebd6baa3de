import { PROVIDER_LABEL, shortId, words } from "../../lib/format.ts";
import type { ThreadGraph } from "../../lib/types.ts";

type GraphRun = ThreadGraph["runs"][number];
type GraphAttempt = GraphRun["attempts"][number];
type GraphNode = NonNullable<GraphAttempt["root"]>;

function NodeTree({ node }: { node: GraphNode }) {
  const n = node.node;
  return (
    <li className="graph-node" data-node-kind={n.kind} data-node-status={n.status}>
      <span className="node-kind">{words(n.kind)}</span>{" "}
      <span className={`badge status-${n.status}`}>{n.status}</span>{" "}
      <code className="muted">{shortId(n.id)}</code>
      {n.nativeItemRef && <span className="ref"> item {n.nativeItemRef}</span>}
      {n.providerTurnId && <span className="ref"> turn {shortId(n.providerTurnId)}</span>}
      {!n.countsForRun && <span className="badge">not counted</span>}
      {node.request && (
        <span className="ref">
          {" "}
          request {words(node.request.kind)} · {node.request.status}
        </span>
      )}
      {node.children.length > 0 && (
        <ul className="graph-children">
          {node.children.map((child) => (
            <NodeTree key={child.node.id} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function RunTree({ graph }: { graph: ThreadGraph }) {
  return (
    <section className="panel" aria-labelledby="graph-runs">
      <h3 id="graph-runs">Runs → attempts → nodes</h3>
      {graph.runs.length === 0 && <p className="muted">No runs yet.</p>}
      <ul className="graph-tree">
        {graph.runs.map(({ run, attempts }) => (
          <li key={run.id} className="graph-run" data-run-id={run.id}>
            <strong>Run {run.ordinal}</strong> · {PROVIDER_LABEL[run.provider]} ·{" "}
            {run.model ?? "default model"} ·{" "}
            <span className={`badge status-${run.status}`}>{words(run.status)}</span>{" "}
            <code className="muted">{shortId(run.id)}</code>
            <ul className="graph-children">
              {attempts.map(({ attempt, providerTurn, root }) => (
                <li key={attempt.id} className="graph-attempt">
                  Attempt {attempt.attemptOrdinal} · {words(attempt.reason)} ·{" "}
                  <span className={`badge status-${attempt.status}`}>{attempt.status}</span> ·
                  provider thread <code>{shortId(attempt.providerThreadId)}</code>
                  {providerTurn && (
                    <span className="ref">
                      {" "}
                      · native turn {providerTurn.nativeTurnRef ?? `#${providerTurn.ordinal}`} (
                      {providerTurn.status})
                    </span>
                  )}
                  {root && (
                    <ul className="graph-children">
                      <NodeTree node={root} />
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
