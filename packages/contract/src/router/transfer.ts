import { ContextTransferId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";

export const transferRouter = {
  get: apiProcedure
    .input(z.object({ transferId: ContextTransferId }))
    .query(({ ctx, input }) => ctx.services.reads.transfer(input.transferId)),
} satisfies TRPCRouterRecord;
