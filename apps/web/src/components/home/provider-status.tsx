"use client";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import type { ProviderStatus } from "../../lib/types.ts";

/** Found / version / ready for each provider, with the reason when it is not usable. */
export function ProviderStatusPanel() {
  const client = useApi();
  const [statuses, setStatuses] = useState<ProviderStatus[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nonce, setNonce] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: nonce re-runs the check on demand
  useEffect(() => {
    let cancelled = false;
    client.provider.status
      .query()
      .then((result) => {
        if (cancelled) return;
        setStatuses(result);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(errorMessage(caught));
      });
    return () => {
      cancelled = true;
    };
  }, [client, nonce]);

  return (
    <section className="panel" aria-labelledby="providers-heading">
      <div className="panel-head">
        <h2 id="providers-heading">Providers</h2>
        <button type="button" onClick={() => setNonce((n) => n + 1)}>
          Check again
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {statuses === null && !error && <p className="muted">Checking…</p>}
      {statuses !== null && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Found</th>
              <th scope="col">Version</th>
              <th scope="col">Ready</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {statuses.map((status) => (
              <tr key={status.provider} data-provider={status.provider}>
                <th scope="row">{PROVIDER_LABEL[status.provider]}</th>
                <td>{status.found ? "yes" : "no"}</td>
                <td>{status.version ?? "—"}</td>
                <td className={status.ready ? "ok" : "warn"}>
                  {status.ready ? "ready" : "not ready"}
                </td>
                <td className="wrap">{status.lastError ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
