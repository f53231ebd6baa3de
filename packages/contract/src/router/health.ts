import type { TRPCRouterRecord } from "@trpc/server";
import { apiProcedure } from "../trpc.ts";

export const healthRouter = {
  /** Liveness plus the log's head sequence (handy to check a client sees the same log). */
  health: apiProcedure.query(async ({ ctx }) => ({
    ok: true as const,
    version: ctx.services.version,
    sequence: await ctx.services.reads.headSequence(),
  })),
} satisfies TRPCRouterRecord;
