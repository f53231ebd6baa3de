import { WorkspacePath } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { assertWorkspaceFolder } from "../workspace/folder-check.ts";
import { OptionalCommandId, Title } from "./inputs.ts";

export const projectRouter = {
  /**
   * B4: the folder must exist and be usable (see workspace/folder-check.ts); otherwise
   * BAD_REQUEST naming the path and the reason, and nothing is appended.
   */
  create: apiProcedure
    .input(z.object({ name: Title, workspaceRoot: WorkspacePath, commandId: OptionalCommandId }))
    .mutation(async ({ ctx, input }) => {
      await assertWorkspaceFolder(input.workspaceRoot, ctx.dataDirs);
      return ctx.orchestrator.createProject(input);
    }),

  list: apiProcedure.query(({ ctx }) => ctx.readModels.projects()),
} satisfies TRPCRouterRecord;
