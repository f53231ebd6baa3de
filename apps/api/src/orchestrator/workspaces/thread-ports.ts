import type { EventStore } from "@skein/db";
import {
  type PortRange,
  PreconditionFailedError,
  projectSettingsOf,
  type ThreadId,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { EffectClaims } from "../commands/effect-claims.ts";

/** The claim every port choice holds (issue 35 claims), so two threads never pick one port. */
export const PORT_CLAIM = "thread-ports";

/**
 * Issue 26: the lowest port of `range` no open thread (but `except`) holds. A thread holds its
 * port until it is archived (or deleted); an archived thread's port is free for the next thread.
 * Call it while holding `PORT_CLAIM`, and record the port before letting go of the claim.
 */
export async function freePort(
  store: EventStore,
  range: PortRange,
  except?: ThreadId,
): Promise<number> {
  // Archived and deleted threads hold no port: the store reads the active ones' from its index.
  const { data: ports } = await store.snapshot((q) =>
    q.portsHeld({ from: range.from, to: range.to, ...(except ? { except } : {}) }),
  );
  const held = new Set(ports);
  for (let port = range.from; port <= range.to; port += 1) {
    if (!held.has(port)) return port;
  }
  throw new PreconditionFailedError(
    `every port from ${range.from} to ${range.to} is held by an open thread of this server; ` +
      "archive threads you are done with, or widen the project's port range",
  );
}

type ReclaimDeps = { store: EventStore; claims: EffectClaims; repo: AggregateRepository };

/**
 * Issue 26: every running thread has a `PORT` of its own, with or without a worktree: two dev
 * servers started by two threads' agents clash on one port whatever folder they run in. A thread
 * with its own worktree got one when the worktree was made; any other (one in the project's
 * folder, a fork sharing its source's folder, one imported or made before ports) gets the lowest
 * free port of its project's range when its first run starts, recorded on the thread and held
 * like a worktree thread's (until archived). A project without a range gives none. All ports
 * held: none either — such a thread shares its folder, and ran without a PORT before ports
 * existed; a hundred open threads must not stop the hundred-and-first from running. Its next run
 * looks again.
 */
export async function ensureThreadPort(
  deps: ReclaimDeps,
  threadId: ThreadId,
): Promise<number | null> {
  const thread = (await deps.repo.thread(threadId)).thread;
  if (!thread || thread.port != null) return thread?.port ?? null;
  const project = (await deps.repo.project(thread.projectId)).project;
  const range = project ? projectSettingsOf(project).portRange : null;
  if (!range) return null;
  return deps.claims.exclusive(PORT_CLAIM, async () => {
    // Another instance (or a worktree) may have given it one while this waited for the claim.
    const now = (await deps.repo.thread(threadId)).thread;
    if (now?.port != null) return now.port;
    const port = await freePort(deps.store, range, threadId).catch(() => null);
    if (port === null) return null;
    await deps.repo.execute({ type: "UpdateThreadSettings", data: { threadId, port } });
    return port;
  });
}

/**
 * An unarchived thread takes its port back, unless another thread got it meanwhile: then it gets
 * a free one from its project's range (none left: it keeps none rather than share one).
 */
export async function reclaimPort(deps: ReclaimDeps, threadId: ThreadId): Promise<void> {
  await deps.claims.exclusive(PORT_CLAIM, async () => {
    const thread = (await deps.repo.thread(threadId)).thread;
    if (thread?.port == null || thread.archivedAt) return;
    const own = { from: thread.port, to: thread.port };
    if ((await freePort(deps.store, own, threadId).catch(() => null)) !== null) return;
    const project = (await deps.repo.project(thread.projectId)).project;
    const range = project ? projectSettingsOf(project).portRange : null;
    const port = range ? await freePort(deps.store, range, threadId).catch(() => null) : null;
    await deps.repo.execute({ type: "UpdateThreadSettings", data: { threadId, port } });
  });
}
