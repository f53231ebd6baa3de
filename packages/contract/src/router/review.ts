import { RunId, ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { OptionalCommandId } from "./inputs.ts";

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

  /**
   * B14: takes back one file of that diff (back to its content before it), or one hunk of it
   * (reversed on the file as it is now). A file the person changed since the agent last wrote it
   * is CONFLICT unless `force`; a hunk whose lines changed since is CONFLICT. A safety checkpoint
   * is kept first (in the answer): `thread.rollback` to it undoes the revert.
   */
  revert: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          runId: RunId.optional(),
          sinceRunId: RunId.optional(),
          path: z.string().min(1).max(4096),
          hunk: z.number().int().nonnegative().max(100_000).optional(),
          force: z.boolean().optional(),
          commandId: OptionalCommandId,
        })
        .strict()
        .refine((v) => !(v.runId && v.sinceRunId), {
          message: "give runId (one run) or sinceRunId (since a run), not both",
          path: ["sinceRunId"],
        }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.reviewRevert(input)),

  /**
   * B17: a comment written on a diff line here goes to the thread's agent as a message with its
   * file, line and hunk, in the words a pull request's review comment would have.
   */
  comment: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          path: z
            .string()
            .min(1)
            .max(4096)
            .refine(
              (p) => !p.startsWith("/") && !p.split(/[\\/]/).includes("..") && !p.includes("\0"),
              {
                message: "must be a path inside the thread's workspace",
              },
            ),
          line: z.number().int().positive().max(10_000_000).nullable(),
          diffHunk: z.string().max(10_000),
          body: z.string().trim().min(1, "write the comment first").max(10_000),
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.sendReviewComment(input)),
} satisfies TRPCRouterRecord;
