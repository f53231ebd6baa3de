import type { AppThread, AppThreadLineage } from "../entities/app-thread.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import { FORK_ITEM_TITLE, type TurnItemOf } from "../entities/turn-item.ts";
import type { CommandData } from "../commands.ts";
import { ConflictError, PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { ThreadSettingsPatch } from "../events/thread-lifecycle-events.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { itemBase } from "./builders.ts";
import { resolveForkPoint } from "./fork-point.ts";
import { turnsThrough } from "../projections/run-number.ts";
import { forkTitle, runOffsetOf } from "./fork-title.ts";
import { requireOtherThread, requireThread } from "./guards.ts";

/** The thread's own record of who started it; nothing for the person (the default). */
function startedBy(
  createdBy: AppThread["createdBy"],
  agentName: string | undefined,
): Pick<AppThread, "createdBy" | "agentName"> {
  if (agentName !== undefined) return { createdBy: "agent", agentName };
  return createdBy === undefined || createdBy === "user" ? {} : { createdBy, agentName: null };
}

export function createThread(
  d: CommandData<"CreateThread">,
  s: ThreadState,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  if (s.thread) throw new ConflictError(`thread ${d.threadId} already exists`);
  let lineage: AppThreadLineage = {
    parentThreadId: null,
    relationshipToParent: null,
    rootThreadId: d.threadId,
  };
  // Issue 26: a sub-agent works in its parent's runtime, so it has its parent's PORT (and keeps
  // it once promoted: its runs go on in that same runtime instead of a second one).
  let port: number | null = null;
  if (d.parentThreadId) {
    const parent = requireOtherThread(ctx.readThread, d.parentThreadId);
    port = parent.thread.port ?? null;
    lineage = {
      parentThreadId: parent.thread.id,
      relationshipToParent: "subagent",
      rootThreadId: parent.thread.lineage?.rootThreadId ?? parent.thread.id,
    };
  }
  const thread: AppThread = {
    id: d.threadId,
    projectId: d.projectId,
    title: d.title,
    defaultProvider: d.defaultProvider,
    modelSelection: d.modelSelection ?? { model: null },
    runtimeMode: d.runtimeMode ?? "approval-required",
    interactionMode: d.interactionMode ?? "default",
    branch: d.branch ?? null,
    worktreePath: d.worktreePath ?? null,
    activeProviderThreadId: null,
    lineage,
    createdAt: meta.at,
    updatedAt: meta.at,
    archivedAt: null,
    deletedAt: null,
    ...startedBy(undefined, d.agentName),
    ...(port !== null ? { port } : {}),
  };
  return [{ type: "ThreadCreated", data: { thread, at: meta.at } }];
}

/**
 * T1/T4: a cheap fork. Only the new thread's stream is written: the thread, its lineage, the
 * item cutoff for reading the source by reference, a fork marker and a pending transfer. No
 * provider, session, provider thread or handoff is chosen or created here.
 */
export function forkThread(
  d: CommandData<"ForkThread">,
  s: ThreadState,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  if (s.thread) throw new ConflictError(`thread ${d.threadId} already exists`);
  if (d.sourceThreadId === d.threadId) throw new ValidationError("a thread cannot fork itself");
  const source = requireOtherThread(ctx.readThread, d.sourceThreadId);
  if (source.thread.deletedAt) {
    throw new PreconditionFailedError(`thread ${source.thread.id} is deleted`);
  }
  const { point, run, cutoffSortKey } = resolveForkPoint(source, d.sourcePoint);
  const sourceRunOrdinal = run?.ordinal ?? 0;
  // E3: only the source's turns count; a compaction before the fork point takes no number.
  const runOffset =
    runOffsetOf(source.inheritance) + turnsThrough(sourceRunOrdinal, source.asideRuns);
  const transferId = meta.ids.next("transfer");
  const forkItemId = meta.ids.next("item");
  const src = source.thread;
  // The fork is started by whoever forks it, not by whoever started the source; the source's
  // port and worktree setup stay the source's own (a fork gets its own when it gets a worktree).
  const {
    createdBy: _sourceStarter,
    agentName: _sourceAgent,
    port: _sourcePort,
    workspaceSetup: _sourceSetup,
    ...inherited
  } = src;
  const thread: AppThread = {
    ...inherited,
    id: d.threadId,
    title: d.title ?? forkTitle(src.title, runOffset > 0 ? runOffset : null, d.sibling),
    activeProviderThreadId: null,
    lineage: {
      parentThreadId: src.id,
      relationshipToParent: d.relationship,
      rootThreadId: src.lineage?.rootThreadId ?? src.id,
    },
    createdAt: meta.at,
    updatedAt: meta.at,
    archivedAt: null,
    deletedAt: null,
    ...startedBy(d.createdBy, d.agentName),
  };
  const item: TurnItemOf<"fork"> = {
    ...itemBase({
      id: forkItemId,
      threadId: d.threadId,
      run: null,
      status: "completed",
      at: meta.at,
    }),
    type: "fork",
    transferId,
    sourceThreadId: src.id,
    sourcePoint: point,
    relationship: d.relationship,
    title: FORK_ITEM_TITLE,
  };
  const transfer: ContextTransfer = {
    id: transferId,
    type: d.relationship === "fork" ? "fork" : "subagent_spawn",
    sourceThreadId: src.id,
    targetThreadId: d.threadId,
    sourcePoint: point,
    basePoint: null,
    sourceProvider: run?.provider ?? null,
    targetProvider: null,
    status: "pending",
    resolution: null,
    createdBy: d.createdBy,
    createdAt: meta.at,
    consumedAt: null,
    targetRunId: null,
    consumedByRunId: null,
    fallback: null,
    error: null,
  };
  const excludedRunOrdinals = source.rolledBackRunOrdinals.filter((o) => o <= sourceRunOrdinal);
  return [
    {
      type: "ThreadForked",
      data: {
        thread,
        inheritance: {
          transferId,
          sourceThreadId: src.id,
          sourcePoint: point,
          relationship: d.relationship,
          cutoffSortKey,
          sourceRunOrdinal,
          runOffset,
          excludedRunOrdinals,
          forkItemId,
        },
        item,
        at: meta.at,
      },
    },
    { type: "ContextTransferCreated", data: { transfer, at: meta.at } },
  ];
}

export function updateThreadSettings(
  d: CommandData<"UpdateThreadSettings">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${thread.id} is deleted`);
  const { threadId: _ignored, ...rest } = d;
  const changes: ThreadSettingsPatch = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(changes, { [key]: value });
  }
  if (Object.keys(changes).length === 0) throw new ValidationError("no settings to change");
  return [{ type: "ThreadSettingsUpdated", data: { threadId: thread.id, changes, at: meta.at } }];
}

export function archiveThread(
  d: CommandData<"ArchiveThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${thread.id} is deleted`);
  if (thread.archivedAt)
    throw new PreconditionFailedError(`thread ${thread.id} is already archived`);
  // Queued runs would otherwise wait forever for a thread that no longer takes work (issue 13);
  // an active run is left to the caller to interrupt, since only the runtime can stop it.
  const cancelled: ThreadEvent[] = [...s.queuedRunIds].map((runId) => ({
    type: "RunCancelled",
    data: { runId, at: meta.at },
  }));
  return [...cancelled, { type: "ThreadArchived", data: { threadId: thread.id, at: meta.at } }];
}

export function unarchiveThread(
  d: CommandData<"UnarchiveThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${thread.id} is deleted`);
  if (!thread.archivedAt) throw new PreconditionFailedError(`thread ${thread.id} is not archived`);
  return [{ type: "ThreadUnarchived", data: { threadId: thread.id, at: meta.at } }];
}

/**
 * T9/E9: only a sub-agent's child thread is promoted, and not while it works: a sub-agent turn
 * still running belongs to its parent's native turn and would stop with it.
 */
export function promoteThread(
  d: CommandData<"PromoteThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${thread.id} is deleted`);
  const parentThreadId = thread.lineage?.parentThreadId;
  if (thread.lineage?.relationshipToParent !== "subagent" || !parentThreadId) {
    throw new ConflictError(
      `thread ${thread.id} is not a sub-agent's child thread: only those can be promoted`,
    );
  }
  if (s.activeRunId) {
    throw new ConflictError(
      `thread ${thread.id} has a run in progress: promote it once that run has ended`,
    );
  }
  return [
    {
      type: "ThreadPromoted",
      data: { threadId: thread.id, formerParentThreadId: parentThreadId, at: meta.at },
    },
  ];
}
