import { ConflictError, type IdSource, type RunId, type ThreadId } from "@skein/domain";
import type { AggregateRepository, ExecuteOptions } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import type { LiveSession } from "./session-manager.ts";

/** The run a thread is executing on this instance, and how to reach its native turn. */
export type ActiveTurn = {
  runId: RunId;
  session: LiveSession;
  nativeThreadRef: string;
  nativeTurnRef: string | null;
  started: boolean;
  interruptRequested: boolean;
  /** Set by app-level steering (R1): the next attempt's input once this turn has stopped. */
  restartWith: string | null;
  /** Aborted when the thread's lease is lost: stop reading the turn's events. */
  abandon: AbortController;
  /** The native turn was interrupted because the lease was lost (sent once). */
  lossInterrupted: boolean;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What reaches a running turn from outside its run loop: interrupt (R1), steer (native, or an
 * interrupt and a restarted attempt), abandoning it when the lease is lost, and shutdown.
 */
export class ActiveTurns {
  private readonly active = new Map<ThreadId, ActiveTurn>();

  constructor(
    private readonly repo: AggregateRepository,
    private readonly ids: IdSource,
    private readonly log: Logger,
  ) {}

  begin(threadId: ThreadId, runId: RunId, session: LiveSession, nativeThreadRef: string) {
    const active: ActiveTurn = {
      runId,
      session,
      nativeThreadRef,
      nativeTurnRef: null,
      started: false,
      interruptRequested: false,
      restartWith: null,
      abandon: new AbortController(),
      lossInterrupted: false,
    };
    this.active.set(threadId, active);
    return active;
  }

  end(threadId: ThreadId): void {
    this.active.delete(threadId);
  }

  /** `answer` binds the command id the interrupt answers (S4, B3). */
  async interrupt(threadId: ThreadId, answer: ExecuteOptions = {}): Promise<number> {
    const state = await this.repo.thread(threadId);
    const runId = state.activeRunId;
    if (!runId) throw new ConflictError(`thread ${threadId} has no active run to interrupt`);
    const result = await this.repo.execute(
      { type: "InterruptRun", data: { threadId, runId } },
      answer,
    );
    const active = this.active.get(threadId);
    if (active && active.runId === runId) {
      active.interruptRequested = true;
      active.restartWith = null;
      if (active.started) await this.interruptNative(active);
    }
    return result.sequence;
  }

  /** Native steer when the provider has it; otherwise interrupt and restart the attempt (R1). */
  async steer(threadId: ThreadId, text: string, answer: ExecuteOptions = {}): Promise<number> {
    const state = await this.repo.thread(threadId);
    const runId = state.activeRunId;
    const active = this.active.get(threadId);
    if (!runId || !active || active.runId !== runId || !active.started) {
      throw new ConflictError(`thread ${threadId} has no running turn to steer`);
    }
    const messageId = this.ids.next("message");
    if (active.session.handle.capabilities.steer) {
      try {
        await active.session.handle.steerTurn(active.nativeThreadRef, active.nativeTurnRef, text);
      } catch (error) {
        // Mostly the turn ending between the check above and the provider seeing the steer.
        throw new ConflictError(
          `thread ${threadId}: the running turn did not take the steer (${message(error)}); send it as a new message instead`,
        );
      }
      return (
        await this.repo.execute(
          { type: "SteerRun", data: { threadId, runId, messageId, text } },
          answer,
        )
      ).sequence;
    }
    const result = await this.repo.execute(
      {
        type: "RestartAttempt",
        data: {
          threadId,
          runId,
          attemptId: this.ids.next("attempt"),
          rootNodeId: this.ids.next("node"),
          reason: "steering_restart",
          steer: { messageId, text },
        },
      },
      answer,
    );
    active.restartWith = text;
    await this.interruptNative(active);
    return result.sequence;
  }

  /** The lease was lost: stop reading the thread's turn and stop it natively (once). */
  abandon(threadId: ThreadId): void {
    const active = this.active.get(threadId);
    if (!active) return;
    active.restartWith = null;
    active.abandon.abort();
    if (active.started) void this.interruptForLoss(active);
  }

  async interruptForLoss(active: ActiveTurn): Promise<void> {
    if (active.lossInterrupted) return;
    active.lossInterrupted = true;
    await this.interruptNative(active);
  }

  async interruptNative(active: ActiveTurn): Promise<void> {
    try {
      await active.session.handle.interruptTurn(active.nativeThreadRef, active.nativeTurnRef);
    } catch (error) {
      this.log.warn({ error: message(error) }, "interrupt could not be delivered");
    }
  }

  /** Shutdown: no more restarts, and every started turn is interrupted. */
  async interruptAll(): Promise<void> {
    for (const active of this.active.values()) {
      active.restartWith = null;
      if (active.started) await this.interruptNative(active);
    }
  }
}
