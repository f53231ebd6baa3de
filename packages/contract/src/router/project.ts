import { ProjectId, ProjectSettingsPatch, WorkspacePath } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { OptionalCommandId, Title } from "./inputs.ts";

export const projectRouter = {
  /**
   * B4: the folder must exist and be usable (the host's `WorkspaceCheck`); otherwise
   * BAD_REQUEST naming the path and the reason, and nothing is appended. The project holds the
   * folder's real path, resolved once here (issue 35).
   */
  create: apiProcedure
    .input(
      z.object({
        name: Title,
        workspaceRoot: WorkspacePath,
        /** Issue 26: how threads get their workspace; left out, the defaults. */
        settings: ProjectSettingsPatch.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const real = await ctx.services.workspaces.assertUsable(input.workspaceRoot);
      return ctx.services.commands.createProject(real ? { ...input, workspaceRoot: real } : input);
    }),

  /**
   * Issue 26: the settings named change (thread workspace, setup script, files to copy, port
   * range); the others keep their values. New threads use them; existing ones keep theirs.
   */
  updateSettings: apiProcedure
    .input(
      z.object({
        projectId: ProjectId,
        settings: ProjectSettingsPatch,
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.commands.updateProjectSettings(input)),
  /** Issue 33: the project and all its threads, soft; CONFLICT (nothing deleted) while one runs. */
  delete: apiProcedure
    .input(z.object({ projectId: ProjectId, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) => ctx.services.commands.deleteProject(input)),

  list: apiProcedure.query(({ ctx }) => ctx.services.reads.projects()),
} satisfies TRPCRouterRecord;
