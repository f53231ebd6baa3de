import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";

/** Calls between Skein instances sharing one database; clients have no use for them. */
export const runtimeRouter = {
  /**
   * Another instance wants to resume a provider thread whose runtime is here (Codex allows one
   * writer per thread): this instance stops the idle runtime that holds it.
   */
  releaseProviderThread: apiProcedure
    .input(z.object({ nativeThreadRef: z.string().min(1).max(200) }))
    .mutation(({ ctx, input }) => {
      if (ctx.forwardedBy === null) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "runtime.releaseProviderThread is called by Skein instances only",
        });
      }
      return ctx.services.commands.releaseProviderThread(input);
    }),
} satisfies TRPCRouterRecord;
