import { RequestAnswers, RequestDecision, RuntimeRequestId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { OptionalCommandId } from "./inputs.ts";

export const requestRouter = {
  /** Answers a pending approval or user-input request while its runtime is live (E15). */
  respond: apiProcedure
    .input(
      z.object({
        requestId: RuntimeRequestId,
        decision: RequestDecision,
        answers: RequestAnswers.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.respondToRequest(input)),
} satisfies TRPCRouterRecord;
