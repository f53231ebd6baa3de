import { ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { MessageText, OptionalCommandId } from "./inputs.ts";

/** A git ref or remote name: what git itself would accept, and never an option (`-…`). */
const RefName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!-)[A-Za-z0-9._/-]+$/, "must be a branch or remote name (letters, digits, . _ / -)")
  .refine((name) => !name.includes("..") && !name.endsWith("/") && !name.endsWith(".lock"), {
    message: "is not a valid git name",
  });
/** A path inside the worktree: relative, no `..` step, no NUL. */
const WorktreePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes("..") && !p.includes("\0"), {
    message: "must be a path inside the thread's worktree",
  });

export const gitRouter = {
  /** B17: commits the thread's changes (all, or `paths`) with the person's git identity. */
  commit: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          message: MessageText.optional(),
          paths: z.array(WorktreePath).min(1).max(1000).optional(),
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.gitCommit(input)),
  /** B17: pushes the thread's branch to its remote (never forced). */
  push: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          remote: RefName.optional(),
          branch: RefName.optional(),
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.gitPush(input)),
} satisfies TRPCRouterRecord;

export const prRouter = {
  /** B17: opens the pull request for the thread's pushed branch; the thread records it. */
  open: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          title: z.string().trim().min(1).max(256).optional(),
          body: MessageText.optional(),
          base: RefName.optional(),
          draft: z.boolean().optional(),
          repository: z
            .string()
            .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "must be owner/name")
            .optional(),
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.openPullRequest(input)),
  /** B17: polls the thread's pull request now (state, checks, statuses, comments, reviews). */
  sync: apiProcedure
    .input(z.object({ threadId: ThreadId }).strict())
    .mutation(({ ctx, input }) => ctx.services.commands.syncPullRequest(input)),
  /** B17: review comments and failing checks become messages to the thread's agent. */
  sendFeedback: apiProcedure
    .input(
      z
        .object({
          threadId: ThreadId,
          commentIds: z.array(z.number().int().positive()).min(1).max(100).optional(),
          checkRunIds: z.array(z.number().int().positive()).min(1).max(20).optional(),
          commandId: OptionalCommandId,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.sendPullRequestFeedback(input)),
  /** B17: merges the thread's pull request by the repository's allowed method. */
  merge: apiProcedure
    .input(z.object({ threadId: ThreadId, commandId: OptionalCommandId }).strict())
    .mutation(({ ctx, input }) => ctx.services.commands.mergePullRequest(input)),
} satisfies TRPCRouterRecord;
