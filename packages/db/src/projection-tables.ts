import { PROJECTION_TABLES } from "@skein/domain";
import type { ProjectionTable } from "./projection-types.ts";

// The domain owns the list of projection tables; the store re-exports it. The store interpolates
// table names into SQL, so the list is also the allow-list that keeps caller input out of the
// statement text.
export { PROJECTION_TABLES };

const known: ReadonlySet<string> = new Set(PROJECTION_TABLES);

export function isProjectionTable(name: string): name is ProjectionTable {
  return known.has(name);
}
