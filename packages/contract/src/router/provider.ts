import { ProviderKind, WorkspacePath } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { MAX_LISTED_SESSIONS } from "../limits.ts";
import { apiProcedure } from "../trpc.ts";

export const providerRouter = {
  /**
   * B15: per provider: binary found, version, ready (found and authenticated), the reason with
   * its fix when not ready, and how it authenticates. Cached briefly; `refresh: true` checks again.
   */
  status: apiProcedure
    .input(z.object({ refresh: z.boolean().optional() }).optional())
    .query(({ ctx, input }) => ctx.services.commands.providerStatus(input)),
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
