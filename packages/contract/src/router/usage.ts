import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";

/** B20: what each provider used, per thread and per day, from the usage the runs recorded. */
export const usageRouter = {
  summary: apiProcedure
    .input(z.object({ days: z.number().int().min(1).max(90).optional() }).optional())
    .query(({ ctx, input }) => ctx.services.reads.usage(input?.days ?? 7)),
} satisfies TRPCRouterRecord;
