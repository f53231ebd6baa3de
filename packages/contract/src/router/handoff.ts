import { ContextTransferId, HandoffWriter, ProviderKind, ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { MessageText, OptionalCommandId } from "./inputs.ts";

export const handoffRouter = {
  /**
   * The handoff the thread's next message would send on `provider` (a switch) or with
   * `bringBackFrom` (a bring-back), built as the run would build it and recorded nowhere:
   * the composer's "review handoff before sending" step. Absent `writer`, the project's
   * `handoffWriter` setting decides who writes it (issue 25 item 3).
   */
  draft: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        provider: ProviderKind,
        bringBackFrom: ThreadId.optional(),
        writer: HandoffWriter.optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.services.commands.draftHandoff(input)),

  /**
   * Builds the transfer's handoff again; the previous one is superseded, not overwritten. On a
   * pending transfer without one, this previews it for `provider` before any run consumes it.
   */
  regenerate: apiProcedure
    .input(
      z.object({
        transferId: ContextTransferId,
        provider: ProviderKind.optional(),
        /**
         * Issue 25: "provider" asks the source provider to write it (Skein's stands in on
         * failure); absent: the project's `handoffWriter` setting decides.
         */
        writer: HandoffWriter.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.regenerateHandoff(input)),

  /** Replaces (or, before any preview, records) the handoff text by hand (`manual_context`). */
  edit: apiProcedure
    .input(
      z.object({ transferId: ContextTransferId, text: MessageText, commandId: OptionalCommandId }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.editHandoff(input)),
} satisfies TRPCRouterRecord;
