import { ProviderKind, WorkspacePath } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { MAX_LISTED_SESSIONS } from "../limits.ts";
import { apiProcedure } from "../trpc.ts";

export const providerRouter = {
  /** Per provider: binary found, version, ready (authenticated), last error. */
  status: apiProcedure.query(({ ctx }) => ctx.services.commands.providerStatus()),
  /** The models a provider offers, with their reasoning-effort levels (read from its runtime). */
  models: apiProcedure
    .input(z.object({ provider: ProviderKind }))
    .query(({ ctx, input }) => ctx.services.commands.providerModels(input.provider)),
  /**
   * B6: the person's own Codex threads / Claude sessions that ran in `workspaceRoot` (read from
   * the provider's store under the server's CODEX_HOME / Claude config dir), newest first, each
   * with the app thread already bound to it, if any.
   */
  sessions: apiProcedure
    .input(
      z.object({
        provider: ProviderKind,
        workspaceRoot: WorkspacePath,
        limit: z.number().int().min(1).max(MAX_LISTED_SESSIONS).optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.services.commands.providerSessions(input)),
} satisfies TRPCRouterRecord;
