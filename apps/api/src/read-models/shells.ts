import type { ProjectionQuery } from "@skein/db";
import { assembleThreadShells, type ThreadShell } from "@skein/domain";
import { typedRows } from "./rows.ts";

/** P1: the sidebar, most recently active first; archived and deleted threads left out. */
export async function readShells(query: ProjectionQuery): Promise<ThreadShell[]> {
  return assembleThreadShells(typedRows<ThreadShell>(await query.list("threads")));
}
