import type { TRPCRouterRecord } from "@trpc/server";
import { apiProcedure } from "../trpc.ts";

export const providerRouter = {
  /** Per provider: binary found, version, ready (authenticated), last error. */
  status: apiProcedure.query(({ ctx }) => ctx.orchestrator.providerStatus()),
} satisfies TRPCRouterRecord;
