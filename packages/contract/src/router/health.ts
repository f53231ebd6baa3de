import type { TRPCRouterRecord } from "@trpc/server";
import packageJson from "../../package.json" with { type: "json" };
import { apiProcedure } from "../trpc.ts";

export const healthRouter = {
  /** Liveness plus the log's head sequence (handy to check a client sees the same log). */
  health: apiProcedure.query(async ({ ctx }) => ({
    ok: true as const,
    version: packageJson.version,
    sequence: await ctx.store.headSequence(),
  })),
} satisfies TRPCRouterRecord;
