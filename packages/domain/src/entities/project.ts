import { z } from "zod";
import { ProjectId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

export const Project = z.object({
  id: ProjectId,
  title: z.string().min(1).max(200),
  /** The workspace root every thread of the project works in unless it has a worktree. */
  workspaceRoot: z.string().min(1),
  defaultProvider: ProviderKind.nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  archivedAt: IsoTimestamp.nullable(),
  deletedAt: IsoTimestamp.nullable(),
});
export type Project = z.infer<typeof Project>;
