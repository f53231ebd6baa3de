import { ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { MAX_FILE_MATCHES } from "../limits.ts";
import { apiProcedure } from "../trpc.ts";

export const workspaceRouter = {
  /**
   * Issue 29 (composer @-mentions): files of the thread's workspace whose path matches `query`,
   * best first, as paths relative to it. Bounded: at most `limit` answers from a capped walk that
   * skips `.git` and `node_modules` and follows no symlink. A query that names a place outside
   * (absolute, `..`) is refused by validation.
   */
  searchFiles: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          query: z
            .string()
            .max(200)
            .refine(
              (q) => !q.startsWith("/") && !q.split(/[\\/]/).includes("..") && !q.includes("\0"),
              { message: "must name a path inside the thread's workspace" },
            ),
          limit: z.number().int().min(1).max(MAX_FILE_MATCHES).optional(),
        })
        .strict(),
    )
    .query(({ ctx, input }) => ctx.services.commands.searchFiles(input)),
} satisfies TRPCRouterRecord;
