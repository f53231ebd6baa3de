import {
  PreconditionFailedError,
  type ProviderSessionId,
  type RuntimeRequestId,
  type ThreadId,
} from "@skein/domain";
import type { AggregateRepository, ExecuteOptions } from "../commands/aggregate-repository.ts";
import type { SessionManager } from "./session-manager.ts";

/** Where an open request can be answered: the live runtime that asked it. */
export type LiveRequest = {
  requestRef: string;
  threadId: ThreadId;
  providerSessionId: ProviderSessionId;
};

export type RequestAnswer = {
  decision: "accept" | "accept_for_session" | "decline" | "cancel";
  answers?: Record<string, string | string[]>;
};

/**
 * Requests a live provider runtime of this instance asked and still waits on (E15). Only these
 * can be answered here; a request whose runtime is gone (restart, lease lost) cannot.
 */
export class LiveRequests {
  private readonly open = new Map<RuntimeRequestId, LiveRequest>();

  constructor(
    private readonly repo: AggregateRepository,
    private readonly sessions: SessionManager,
  ) {}

  remember(requestId: RuntimeRequestId, live: LiveRequest): void {
    this.open.set(requestId, live);
  }

  /** The provider withdrew it: nothing to deliver an answer to. */
  forget(requestId: RuntimeRequestId): void {
    this.open.delete(requestId);
  }

  /** The thread's runtime is no longer ours: its requests cannot be answered here. */
  forgetThread(threadId: ThreadId): void {
    for (const [requestId, live] of this.open) {
      if (live.threadId === threadId) this.open.delete(requestId);
    }
  }

  /** Answers a live request: recorded through the domain first, then delivered to the runtime. */
  async respond(
    requestId: RuntimeRequestId,
    threadId: ThreadId,
    answer: RequestAnswer,
    receipt: ExecuteOptions = {},
  ): Promise<number> {
    const live = this.open.get(requestId);
    const session = live ? this.sessions.findBySessionId(live.providerSessionId) : undefined;
    if (!live || !session?.handle.isAlive()) {
      const recorded = (await this.repo.thread(threadId)).requests.get(requestId);
      const why =
        recorded?.responseCapability.type === "not_resumable"
          ? recorded.responseCapability.reason
          : "the provider runtime that asked it is gone";
      throw new PreconditionFailedError(
        `request ${requestId} can no longer be answered: ${why}. Send a new message to carry on.`,
      );
    }
    const result = await this.repo.execute(
      {
        type: "ResolveRuntimeRequest",
        data: {
          threadId,
          requestId,
          decision: answer.decision,
          ...(answer.answers ? { answers: answer.answers } : {}),
        },
      },
      receipt,
    );
    this.open.delete(requestId);
    const answers = answer.answers
      ? Object.fromEntries(
          Object.entries(answer.answers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v]),
        )
      : undefined;
    await session.handle.respondToRequest(live.requestRef, {
      decision: answer.decision,
      ...(answers ? { answers } : {}),
    });
    return result.sequence;
  }
}
