/**
 * Runs one bench of a package on its small workload; returns the names of the rows it wrote to
 * `rowsFile`, each with a measured value (see bench-smoke.js).
 */
export function measuredRowNames(
  /** The package's folder (its bench resolves tsx from there). */
  packageDir: string,
  /** The bench script, relative to `packageDir`. */
  bench: string,
  /** The rows file the bench writes (e.g. `db.json`). */
  rowsFile: string,
): Promise<string[]>;
