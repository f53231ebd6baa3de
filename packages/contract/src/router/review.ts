import { RunId, ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";

export const reviewRouter = {
  /**
   * Per-file unified diffs from the thread's checkpoints: `runId` gives that run's changes,
   * otherwise the thread's changes from its start (or since `sinceRunId`'s checkpoint) to the
   * checkpoint the workspace is at.
   */
  diff: apiProcedure
    .input(
      z
        .object({ threadId: ThreadId, runId: RunId.optional(), sinceRunId: RunId.optional() })
        .strict()
        .refine((v) => !(v.runId && v.sinceRunId), {
          message: "give runId (one run) or sinceRunId (since a run), not both",
          path: ["sinceRunId"],
        }),
    )
    .query(({ ctx, input }) => ctx.services.commands.reviewDiff(input)),
} satisfies TRPCRouterRecord;
