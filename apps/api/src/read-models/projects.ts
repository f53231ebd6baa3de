import type { ProjectionQuery } from "@skein/db";
import type { Project } from "@skein/domain";
import { compareText, typedRows } from "./rows.ts";

/** Every project that is not deleted, oldest first (archived ones included, flagged). */
export async function readProjects(query: ProjectionQuery): Promise<Project[]> {
  return typedRows<Project>(await query.list("projects"))
    .map((row) => row.data)
    .filter((project) => project.deletedAt === null)
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
}
