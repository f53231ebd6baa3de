"use client";
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { queryKeys } from "../../lib/query/keys.ts";
import { PROVIDER_LABEL, shortId, shortTime, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { useLineage } from "../../lib/use-run-number.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { DEFAULT_PROVIDER, type Run, type Transfer, type TransferView } from "../../lib/types.ts";
import { CopyId } from "../common/copy-id.tsx";
import { HandoffPanel } from "./handoff-panel.tsx";

type Point = Transfer["sourcePoint"];

function PointView({ point, runs }: { point: Point | null; runs: readonly Run[] }) {
  const { shells } = useShells();
  const { numberOf } = useLineage();
  const { detail } = useThread();
  if (point === null) return <span className="muted">—</span>;
  const run = point.runId ? runs.find((r) => r.id === point.runId) : undefined;
  // A fork's source run is not among this thread's runs; its inheritance knows the ordinal.
  const inherited = detail?.thread.inheritance;
  const ordinal =
    run?.ordinal ??
    (inherited && inherited.sourcePoint.runId === point.runId ? inherited.sourceRunOrdinal : null);
  return (
    <span>
      <Link href={`/threads/${point.threadId}`}>
        {shells.get(point.threadId)?.title ?? "another thread"}
      </Link>
      {point.runId && (
        <>
          {" "}
          · {ordinal !== null ? `run ${numberOf(point.threadId, ordinal)}` : "a run"}{" "}
          <CopyId id={point.runId} what="run" />
        </>
      )}
      {point.checkpointId && (
        <>
          {" "}
          · checkpoint <CopyId id={point.checkpointId} what="checkpoint" />
        </>
      )}
      {point.providerTurnRef && <> · turn {point.providerTurnRef}</>}
    </span>
  );
}

/**
 * One transfer with its current handoff (one query per transfer), invalidated whenever the
 * transfer's state moves.
 */
export function TransferCard({ transfer, runs }: { transfer: Transfer; runs: readonly Run[] }) {
  const client = useApi();
  const { detail } = useThread();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.transfer(transfer.id),
    queryFn: () => client.transfer.get.query({ transferId: transfer.id }),
    // Shown from the cache when the tab is opened again, and read again behind it.
    staleTime: 0,
  });
  const view: TransferView | null = query.data ?? null;
  const error = query.error === null ? null : errorMessage(query.error);
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.transfer(transfer.id) }),
    [queryClient, transfer.id],
  );
  // The transfer's status and resolution come live with the thread's events: when they move,
  // its handoff (read separately) has moved too.
  const stateKey = `${transfer.status}|${JSON.stringify(transfer.resolution)}`;
  const seenState = useRef(stateKey);
  useEffect(() => {
    if (seenState.current === stateKey) return;
    seenState.current = stateKey;
    refresh();
  }, [stateKey, refresh]);

  const resolution = transfer.resolution;
  // A fork's transfer names no target provider (T4); the handoff its run built does (a preview
  // only says which provider it was built for: the run still picks).
  const targetProvider =
    transfer.targetProvider ??
    (transfer.status === "pending" ? null : (view?.handoff?.payload.targetProvider ?? null));
  return (
    <section
      id={transfer.id}
      className="panel transfer-card"
      aria-label={`Transfer ${words(transfer.type)} ${shortId(transfer.id)}`}
      data-transfer-type={transfer.type}
      data-transfer-status={transfer.status}
    >
      <div className="panel-head">
        <h3>
          {words(transfer.type)}{" "}
          <span className={`badge status-${transfer.status}`}>{words(transfer.status)}</span>
        </h3>
        <span className="muted">
          {transfer.createdBy} · {shortTime(transfer.createdAt)}
        </span>
      </div>
      <dl className="facts">
        <dt>Source point</dt>
        <dd>
          <PointView point={transfer.sourcePoint} runs={runs} />
        </dd>
        <dt>Base point</dt>
        <dd>
          <PointView point={transfer.basePoint} runs={runs} />
        </dd>
        <dt>Providers</dt>
        <dd>
          {transfer.sourceProvider ? PROVIDER_LABEL[transfer.sourceProvider] : "—"} →{" "}
          {targetProvider
            ? PROVIDER_LABEL[targetProvider]
            : transfer.status === "pending"
              ? "not chosen yet (the target's first run picks it)"
              : "—"}
        </dd>
        <dt>Resolution</dt>
        <dd>
          {resolution === null
            ? "unresolved (resolved lazily at the target's first run)"
            : words(resolution.strategy)}
          {resolution?.strategy === "native_fork" && <> · {resolution.providerThreadRef}</>}
        </dd>
        {transfer.consumedByRunId && (
          <>
            <dt>Consumed by</dt>
            <dd>
              {runs.find((r) => r.id === transfer.consumedByRunId)?.ordinal
                ? `run ${runs.find((r) => r.id === transfer.consumedByRunId)?.ordinal}`
                : shortId(transfer.consumedByRunId)}{" "}
              at {shortTime(transfer.consumedAt)}
            </dd>
          </>
        )}
        {transfer.fallback && (
          <>
            <dt>Fallback</dt>
            <dd>native fork failed, portable context used: {transfer.fallback.reason}</dd>
          </>
        )}
        {transfer.error && (
          <>
            <dt>Error</dt>
            <dd className="error">{transfer.error}</dd>
          </>
        )}
      </dl>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {view && (
        <HandoffPanel
          transfer={transfer}
          view={view}
          threadDefault={detail?.thread.defaultProvider ?? DEFAULT_PROVIDER}
          onChanged={refresh}
        />
      )}
    </section>
  );
}
