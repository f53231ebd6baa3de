import {
  AnswersInput,
  NotFoundError,
  RequestDecision,
  RuntimeRequestId,
  ThreadId,
} from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { originOf } from "../context.ts";
import { rethrowMapped } from "../errors.ts";
import { apiProcedure } from "../trpc.ts";
import { LastEventId, OptionalCommandId } from "./inputs.ts";

export const requestRouter = {
  /**
   * P5 across threads: every pending request (or one thread's), oldest first, each saying whether
   * it can still be answered and, for user_input, the questions whose ids key the answers.
   */
  pending: apiProcedure
    .input(z.object({ threadId: ThreadId.optional() }).optional())
    .query(async ({ ctx, input }) => {
      const threadId = input?.threadId;
      if (threadId !== undefined && !(await ctx.services.reads.threadExists(threadId))) {
        rethrowMapped(new NotFoundError("thread", threadId));
      }
      return ctx.services.reads.pendingRequests(threadId);
    }),
  /**
   * P5 as a stream (S2): the pending requests at N (one thread's or every thread's), then every
   * later event that can open, answer, expire or re-word one, resumable by `lastEventId`.
   */
  watchPending: apiProcedure
    .input(z.object({ threadId: ThreadId.optional(), lastEventId: LastEventId }).optional())
    .subscription(({ ctx, input, signal }) =>
      ctx.services.watches.pendingRequests(input ?? {}, signal),
    ),
  /**
   * Answers a pending approval or user-input request while its runtime is live (E15), on the
   * instance that runs it (forwarded there when that is another one).
   */
  respond: apiProcedure
    .input(
      z.object({
        requestId: RuntimeRequestId,
        decision: RequestDecision,
        answers: AnswersInput.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.respondToRequest(input, originOf(ctx))),
} satisfies TRPCRouterRecord;
