import type { ProjectionTable } from "./projection-types.ts";

/**
 * Every projection table, in schema order. The store interpolates table names into SQL, so this
 * list is also the allow-list that keeps caller input out of the statement text.
 */
export const PROJECTION_TABLES = [
  "projects",
  "threads",
  "runs",
  "attempts",
  "nodes",
  "messages",
  "plans",
  "turn_items",
  "transfers",
  "handoffs",
  "provider_sessions",
  "provider_threads",
  "provider_turns",
  "requests",
  "checkpoints",
] as const satisfies readonly ProjectionTable[];

// Fails to compile if ProjectionTable gains a member that the list above lacks.
type Missing = Exclude<ProjectionTable, (typeof PROJECTION_TABLES)[number]>;
const exhaustive: Missing extends never ? true : Missing = true;
void exhaustive;

const known: ReadonlySet<string> = new Set(PROJECTION_TABLES);

export function isProjectionTable(name: string): name is ProjectionTable {
  return known.has(name);
}
