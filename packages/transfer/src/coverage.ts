import type { ContextHandoff, ProviderThread, ProviderThreadId, Run } from "./inputs.ts";
import { type OrdinalRange, rangeContains, toRanges } from "./ordinal-ranges.ts";

/**
 * What a provider thread knows of its app thread (E9). Coverage is gapped: runs 1–5 native on
 * A, 6–8 on B, 9 back on A leaves A with native 1–5, 9 and a bridged gap 6–8. A provider thread
 * is brought up to date each time it runs, so it knows every counted run up to `lastSeenOrdinal`
 * — natively or through a handoff — and nothing after it.
 */
export type ProviderThreadCoverage = {
  readonly providerThreadId: ProviderThreadId;
  readonly lastSeenOrdinal: number;
  /** Counted runs that executed on this provider thread. */
  readonly native: readonly OrdinalRange[];
  /** Counted runs up to lastSeen that it knows through handoffs (the E9 gaps). */
  readonly bridged: readonly OrdinalRange[];
  /** Gaps up to lastSeen that no known handoff explains: its context cannot be trusted. */
  readonly unbridged: readonly OrdinalRange[];
  /** Counted runs after lastSeen, up to the thread's latest: what it missed. */
  readonly missed: readonly OrdinalRange[];
  /** The runs in `missed`, ascending. */
  readonly missedOrdinals: readonly number[];
  readonly handoffCount: number;
};

const BRIDGING_STATUSES = new Set(["ready", "superseded"]);

/**
 * @param counted the app thread's counted runs (see `countedRunsOf`), ascending.
 * @param handoffs when given, each gap must be covered by one of the provider thread's handoffs;
 *   when omitted, gaps count as bridged if the provider thread received any handoff at all.
 */
export function describeCoverage(
  providerThread: ProviderThread,
  counted: readonly Run[],
  handoffs?: readonly ContextHandoff[],
): ProviderThreadCoverage {
  const nativeOrdinals = counted
    .filter((run) => run.providerThreadId === providerThread.id)
    .map((run) => run.ordinal);
  // A stale lastRunOrdinal must not make a thread look behind runs it executed itself.
  const lastSeen = nativeOrdinals.reduce(
    (max, ordinal) => Math.max(max, ordinal),
    Math.max(providerThread.lastRunOrdinal ?? 0, 0),
  );
  const nativeSet = new Set(nativeOrdinals);
  const gaps = counted
    .map((run) => run.ordinal)
    .filter((ordinal) => ordinal <= lastSeen && !nativeSet.has(ordinal));

  const own = new Set(providerThread.handoffIds);
  const bridging =
    handoffs?.filter(
      (h) =>
        own.has(h.id) &&
        BRIDGING_STATUSES.has(h.status) &&
        (h.toProviderThreadId === null || h.toProviderThreadId === providerThread.id),
    ) ?? null;
  const isBridged = (ordinal: number): boolean =>
    bridging === null
      ? own.size > 0
      : bridging.some((h) => h.coveredRunOrdinals && rangeContains(h.coveredRunOrdinals, ordinal));

  const missedOrdinals = counted.map((run) => run.ordinal).filter((ordinal) => ordinal > lastSeen);
  return {
    providerThreadId: providerThread.id,
    lastSeenOrdinal: lastSeen,
    native: toRanges(nativeOrdinals),
    bridged: toRanges(gaps.filter(isBridged)),
    unbridged: toRanges(gaps.filter((ordinal) => !isBridged(ordinal))),
    missed: toRanges(missedOrdinals),
    missedOrdinals,
    handoffCount: providerThread.handoffIds.length,
  };
}

/** Whether the provider thread knows every counted run of its app thread. */
export function isCaughtUp(coverage: ProviderThreadCoverage): boolean {
  return coverage.missedOrdinals.length === 0 && coverage.unbridged.length === 0;
}
