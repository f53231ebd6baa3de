import { ContextTransferId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { MessageText, OptionalCommandId } from "./inputs.ts";

export const handoffRouter = {
  /** Builds the transfer's handoff again; the previous one is superseded, not overwritten. */
  regenerate: apiProcedure
    .input(z.object({ transferId: ContextTransferId, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) => ctx.orchestrator.regenerateHandoff(input)),

  /** Replaces the handoff text by hand (strategy `manual_context`). */
  edit: apiProcedure
    .input(
      z.object({ transferId: ContextTransferId, text: MessageText, commandId: OptionalCommandId }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.editHandoff(input)),
} satisfies TRPCRouterRecord;
