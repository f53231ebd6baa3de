import type { ThreadId } from "@skein/domain";

/** A sub-agent turn running under a parent turn of this process. */
export type RunningChild = {
  parentThreadId: ThreadId;
  /** Stops the sub-agent's native turn (a person interrupting the child thread). */
  interrupt: () => Promise<void>;
};

/**
 * The sub-agent turns running here, for this process: a person interrupting a child thread
 * reaches its native turn, and a parent's interrupt reaches its children. Which child thread
 * follows which native sub-agent thread is not kept here but in the parent's event log (E8).
 */
export class SubagentRegistry {
  private readonly running = new Map<ThreadId, RunningChild>();

  started(threadId: ThreadId, turn: RunningChild): void {
    this.running.set(threadId, turn);
  }

  ended(threadId: ThreadId): void {
    this.running.delete(threadId);
  }

  private readonly delegates = new Map<ThreadId, ThreadId>();

  /** A delegated child thread (the app's own delegate tool) runs for `parentThreadId`. */
  delegated(childId: ThreadId, parentThreadId: ThreadId): void {
    this.delegates.set(childId, parentThreadId);
  }

  undelegated(childId: ThreadId): void {
    this.delegates.delete(childId);
  }

  /** Delegated child threads running for `parentThreadId` right now. */
  delegatedUnder(parentThreadId: ThreadId): ThreadId[] {
    return [...this.delegates]
      .filter(([, parent]) => parent === parentThreadId)
      .map(([childId]) => childId);
  }

  /** Child threads whose sub-agent turn runs under `parentThreadId`'s turn right now. */
  runningUnder(parentThreadId: ThreadId): ThreadId[] {
    return [...this.running]
      .filter(([, child]) => child.parentThreadId === parentThreadId)
      .map(([threadId]) => threadId);
  }

  /** The native turn a child thread's active run is, while its parent's turn runs here. */
  runningTurn(threadId: ThreadId): RunningChild | undefined {
    return this.running.get(threadId);
  }
}
