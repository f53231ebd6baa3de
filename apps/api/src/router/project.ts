import path from "node:path";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { OptionalCommandId, Title } from "./inputs.ts";

export const projectRouter = {
  create: apiProcedure
    .input(
      z.object({
        name: Title,
        workspaceRoot: z
          .string()
          .min(1)
          .max(4096)
          .refine((root) => path.isAbsolute(root), "must be an absolute path"),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.createProject(input)),

  list: apiProcedure.query(({ ctx }) => ctx.readModels.projects()),
} satisfies TRPCRouterRecord;
