"use client";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { readinessWords, type useProviderStatus } from "../../lib/use-provider-status.ts";

/**
 * B15: each provider's state (found, version, signed in) and, when it is not ready, what to do,
 * with "Check again" asking the server to check now. The home page shows it first while Skein
 * is not yet usable (no project, or a provider not ready).
 */
export function ProviderStatusPanel({
  firstRun,
  readiness,
}: {
  firstRun: boolean;
  readiness: ReturnType<typeof useProviderStatus>;
}) {
  const { statuses, error, checking, checkAgain } = readiness;
  return (
    <section className="panel" aria-labelledby="providers-heading">
      <div className="panel-head">
        <h2 id="providers-heading">{firstRun ? "Get started: providers" : "Providers"}</h2>
        <button type="button" onClick={() => void checkAgain()} disabled={checking}>
          {checking && statuses !== null ? "Checking…" : "Check again"}
        </button>
      </div>
      {firstRun && (
        <p className="hint">
          Skein runs your messages on Codex and Claude Code installed on this server. Each needs to
          be signed in there before it can take a message.
        </p>
      )}
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
              <th scope="col">Version</th>
              <th scope="col">State</th>
              <th scope="col">What to do</th>
            </tr>
          </thead>
          <tbody>
            {statuses.map((status) => (
              <tr key={status.provider} data-provider={status.provider}>
                <th scope="row">{PROVIDER_LABEL[status.provider]}</th>
                <td>{status.version ?? "—"}</td>
                <td className={status.ready ? "ok" : "warn"}>{readinessWords(status)}</td>
                <td className="wrap">{status.ready ? "Nothing" : (status.lastError ?? "—")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
