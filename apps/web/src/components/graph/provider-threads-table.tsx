import { PROVIDER_LABEL, shortId } from "../../lib/format.ts";
import type { ThreadGraph } from "../../lib/types.ts";

/** Which run ordinals a provider thread covered, with the gaps other providers filled (E9). */
export function coverage(
  graph: ThreadGraph,
  providerThreadId: string,
): { covered: number[]; gaps: number[] } {
  const covered = graph.runs
    .filter(({ run }) => run.providerThreadId === providerThreadId)
    .map(({ run }) => run.ordinal)
    .sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < covered.length; i += 1) {
    for (let n = covered[i - 1]! + 1; n < covered[i]!; n += 1) gaps.push(n);
  }
  return { covered, gaps };
}

export function ProviderThreadsTable({ graph }: { graph: ThreadGraph }) {
  return (
    <section className="panel" aria-labelledby="graph-provider-threads">
      <h3 id="graph-provider-threads">Provider threads</h3>
      {graph.providerThreads.length === 0 ? (
        <p className="muted">
          No provider thread yet (a fork creates none until its first message).
        </p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Thread</th>
              <th scope="col">Provider</th>
              <th scope="col">Native ref</th>
              <th scope="col">Status</th>
              <th scope="col">Runs covered</th>
              <th scope="col">Gaps</th>
              <th scope="col">Forked from</th>
            </tr>
          </thead>
          <tbody>
            {graph.providerThreads.map((pt) => {
              const { covered, gaps } = coverage(graph, pt.id);
              return (
                <tr key={pt.id} data-provider-thread-id={pt.id}>
                  <td>
                    <code>{shortId(pt.id)}</code>
                  </td>
                  <td>{PROVIDER_LABEL[pt.provider]}</td>
                  <td className="wrap">
                    <code>{pt.nativeThreadRef ?? "—"}</code>
                  </td>
                  <td>{pt.status}</td>
                  <td>{covered.length > 0 ? covered.join(", ") : "—"}</td>
                  <td className={gaps.length > 0 ? "warn" : undefined}>
                    {gaps.length > 0 ? gaps.join(", ") : "none"}
                  </td>
                  <td className="wrap">
                    {pt.forkedFrom
                      ? (pt.forkedFrom.nativeThreadRef ??
                        shortId(pt.forkedFrom.providerThreadId ?? ""))
                      : "—"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {graph.providerSessions.length > 0 && (
        <>
          <h4>Provider sessions</h4>
          <ul className="compact-list">
            {graph.providerSessions.map((session) => (
              <li key={session.id}>
                <code>{shortId(session.id)}</code> · {PROVIDER_LABEL[session.provider]} ·{" "}
                {session.status} · {session.model ?? "default model"}
                {session.lastError && <span className="error"> · {session.lastError}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
