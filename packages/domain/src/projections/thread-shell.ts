import type { AppThread, AppThreadLineage } from "../entities/app-thread.ts";
import type {
  InteractionMode,
  ModelSelection,
  ProviderKind,
  RuntimeMode,
  TokenUsage,
} from "../entities/common.ts";
import type { NetChange } from "../entities/checkpoint.ts";
import type { ForkInheritance } from "../entities/fork-inheritance.ts";
import type { ProjectId, RunId, ThreadId } from "../ids.ts";
import type { AsideRange } from "./run-number.ts";
import { usageLimitStands } from "../entities/usage-limit.ts";
import { nextQueuedRun, type ThreadState } from "../state/thread-state.ts";

export type ThreadShellStatus = "idle" | "running" | "waiting" | "failed";

/** P1: one sidebar row; the `threads` table's `data`. */
export type ThreadShell = {
  id: ThreadId;
  projectId: ProjectId;
  title: string;
  defaultProvider: ProviderKind;
  modelSelection: ModelSelection;
  runtimeMode: RuntimeMode;
  interactionMode: InteractionMode;
  branch: string | null;
  worktreePath: string | null;
  lineage: AppThreadLineage | null;
  /** Who started the thread when not the person (an outside agent, by `agentName`). */
  createdBy?: AppThread["createdBy"];
  agentName?: string | null;
  /** For forks: how to read the source's turn items by reference (P7). */
  inheritance: ForkInheritance | null;
  status: ThreadShellStatus;
  activeRunId: RunId | null;
  /**
   * E3: runs that count for the conversation: not cancelled, not rolled back, and not a
   * compaction, imported or system run (those stay in the graph, not in this count).
   */
  runCount: number;
  /**
   * E3: ordinals of the runs that take no run number (compaction, imported, system), as ranges;
   * absent when there are none. With `inheritance.runOffset` it numbers any run of the thread.
   */
  asideRuns?: AsideRange[];
  queuedRunCount: number;
  pendingRequestCount: number;
  /**
   * Issue 29: the provider of the thread's latest run (the sidebar's provider mark; a thread can
   * switch providers, so `defaultProvider` is not what ran). Absent before the first run.
   */
  lastRunProvider?: ProviderKind;
  /**
   * Issue 29: when the latest settled run ended, so a browser can tell a run finished since the
   * person last opened the thread ("unread"). Absent until a run settles.
   */
  lastRunEndedAt?: string;
  /**
   * Issue 29: the thread's net change (files, lines added and removed since its start) at its
   * latest conversation checkpoint; absent before one, and after a rollback made it stale.
   */
  diffStat?: NetChange;
  /** Tokens (and cost where reported) of all the thread's runs; absent on rows from before usage. */
  usage?: TokenUsage | null;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  deletedAt: string | null;
  /** B17: the pull request opened from the thread, as its watch last saw it. */
  pullRequest?: AppThread["pullRequest"];
  /** Issue 26: the `PORT` its runtimes get, and how its worktree's setup went. */
  port?: number | null;
  workspaceSetup?: AppThread["workspaceSetup"];
  /** B17: the PR's new review comments and failing checks go to the agent unasked (absent: no). */
  autoFeedback?: boolean;
  /** Issue 32: what a usage limit leads to (absent: `wait`). */
  onUsageLimit?: AppThread["onUsageLimit"];
  /** Issue 32: the latest usage limit a run failed at, until a run completes (absent: none). */
  usageLimit?: AppThread["usageLimit"];
};

/**
 * waiting: the active run waits for an answer; running: a run is active or queued;
 * failed: the latest settled run failed; idle otherwise. O(1) from the state's caches.
 */
export function shellStatusOf(s: ThreadState): ThreadShellStatus {
  const active = s.activeRunId ? s.runs.get(s.activeRunId) : undefined;
  if (active) return active.status === "waiting" ? "waiting" : "running";
  // Issue 32: runs a usage limit holds are not running; the thread reads as its failed run.
  if (s.queuedRunIds.size > 0 && (!usageLimitStands(s.thread?.usageLimit) || nextQueuedRun(s))) {
    return "running";
  }
  const last = s.lastSettledRunId ? s.runs.get(s.lastSettledRunId) : undefined;
  return last?.status === "failed" ? "failed" : "idle";
}

export function threadShellOf(s: ThreadState): ThreadShell | null {
  const t = s.thread;
  if (!t) return null;
  // O(1): the last run by ordinal and the cached last settled run, never a scan of the runs.
  const latestRunId = s.runOrder.at(-1);
  const latestRun = latestRunId ? s.runs.get(latestRunId) : undefined;
  const settled = s.lastSettledRunId ? s.runs.get(s.lastSettledRunId) : undefined;
  const checkpoint = s.lastRootCheckpointId ? s.checkpoints.get(s.lastRootCheckpointId) : undefined;
  const diffStat = checkpoint?.status === "ready" ? checkpoint.netChange : undefined;
  return {
    id: t.id,
    projectId: t.projectId,
    title: t.title,
    defaultProvider: t.defaultProvider,
    modelSelection: t.modelSelection,
    runtimeMode: t.runtimeMode,
    interactionMode: t.interactionMode,
    branch: t.branch,
    worktreePath: t.worktreePath,
    lineage: t.lineage,
    ...(t.createdBy === undefined
      ? {}
      : { createdBy: t.createdBy, agentName: t.agentName ?? null }),
    inheritance: s.inheritance,
    status: shellStatusOf(s),
    activeRunId: s.activeRunId,
    runCount:
      s.runOrder.length - s.cancelledRunCount - s.rolledBackRunOrdinals.length - s.asideRunCount,
    ...(s.asideRuns.length > 0 ? { asideRuns: s.asideRuns } : {}),
    queuedRunCount: s.queuedRunIds.size,
    pendingRequestCount: s.pendingRequestIds.size,
    usage: s.usageTotal,
    ...(latestRun ? { lastRunProvider: latestRun.provider } : {}),
    ...(settled?.completedAt ? { lastRunEndedAt: settled.completedAt } : {}),
    ...(diffStat ? { diffStat } : {}),
    lastActivityAt: s.lastActivityAt ?? t.updatedAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    archivedAt: t.archivedAt,
    deletedAt: t.deletedAt,
    ...(t.pullRequest ? { pullRequest: t.pullRequest } : {}),
    ...(t.port != null ? { port: t.port } : {}),
    ...(t.workspaceSetup ? { workspaceSetup: t.workspaceSetup } : {}),
    ...(t.autoFeedback ? { autoFeedback: true } : {}),
    ...(t.onUsageLimit ? { onUsageLimit: t.onUsageLimit } : {}),
    ...(t.usageLimit ? { usageLimit: t.usageLimit } : {}),
  };
}
