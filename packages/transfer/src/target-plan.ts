import { describeCoverage, type ProviderThreadCoverage } from "./coverage.ts";
import type { ProviderThread, Run } from "./inputs.ts";
import type { PortableReason, ResolveStartContextInput } from "./resolution-types.ts";
import { countedRunsOf, latestOrdinal } from "./run-history.ts";

export const DEFAULT_MAX_HANDOFFS_PER_PROVIDER_THREAD = 4;

/** Where the chosen provider stands relative to the app thread's progress. */
export type TargetPlan =
  | { readonly state: "fresh"; readonly replaces: ProviderThread | null }
  | {
      readonly state: "current";
      readonly providerThread: ProviderThread;
      readonly coverage: ProviderThreadCoverage;
    }
  | {
      readonly state: "behind";
      readonly providerThread: ProviderThread;
      readonly coverage: ProviderThreadCoverage;
    }
  | {
      readonly state: "rebuild";
      readonly replaces: ProviderThread | null;
      readonly reason: PortableReason;
    };

export type ThreadProgress = {
  readonly counted: readonly Run[];
  readonly latest: number | null;
};

export function threadProgress(input: ResolveStartContextInput): ThreadProgress {
  const counted = countedRunsOf(input.runs, input.threadId);
  return { counted, latest: latestOrdinal(counted) };
}

/**
 * The provider thread the chosen provider would continue: the one bound to this app thread that
 * has seen the most. Subagent-owned provider threads never stand in for the app thread.
 */
function candidateFor(input: ResolveStartContextInput): ProviderThread | null {
  const candidates = input.providerThreads
    .filter(
      (pt) =>
        pt.provider === input.provider &&
        pt.appThreadId === input.threadId &&
        (pt.ownerNodeId === undefined || pt.ownerNodeId === null),
    )
    .sort(
      (a, b) =>
        (b.lastRunOrdinal ?? 0) - (a.lastRunOrdinal ?? 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  return candidates[0] ?? null;
}

const UNUSABLE_STATUSES = new Set(["archived", "closed", "error"]);

function blocker(
  input: ResolveStartContextInput,
  pt: ProviderThread,
  coverage: ProviderThreadCoverage,
): PortableReason | null {
  const flagged = input.knownFailures?.providerThreads?.find((f) => f.providerThreadId === pt.id);
  if (flagged) return flagged.reason;
  if (UNUSABLE_STATUSES.has(pt.status)) return "not_resumable";
  if (!pt.nativeThreadRef) return "no_native_thread_ref";
  if (pt.status === "not_loaded" && !input.capabilities.resume) return "resume_unsupported";
  if (coverage.unbridged.length > 0) return "coverage_hole";
  const max =
    input.policy?.maxHandoffsPerProviderThread ?? DEFAULT_MAX_HANDOFFS_PER_PROVIDER_THREAD;
  // T7: another handoff on a thread that already absorbed many degrades its context.
  if (coverage.missedOrdinals.length > 0 && coverage.handoffCount + 1 > max) {
    return "too_many_handoffs";
  }
  return null;
}

export function planTarget(input: ResolveStartContextInput, progress: ThreadProgress): TargetPlan {
  const pt = candidateFor(input);
  if (pt === null) {
    return progress.latest === null
      ? { state: "fresh", replaces: null }
      : { state: "rebuild", replaces: null, reason: "no_provider_thread" };
  }
  const coverage = describeCoverage(pt, progress.counted, input.handoffs);
  const reason = blocker(input, pt, coverage);
  if (reason !== null) {
    return progress.latest === null
      ? { state: "fresh", replaces: pt }
      : { state: "rebuild", replaces: pt, reason };
  }
  return coverage.missedOrdinals.length === 0
    ? { state: "current", providerThread: pt, coverage }
    : { state: "behind", providerThread: pt, coverage };
}
