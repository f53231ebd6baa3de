/** Runs one bench of a package on its small workload; returns the rows it wrote to `rowsFile`. */
export function runBenchSmoke(run: {
  /** The package's folder (its bench resolves tsx from there). */
  packageDir: string;
  /** The bench script, relative to `packageDir`. */
  bench: string;
  /** The rows file the bench writes (e.g. `db.json`). */
  rowsFile: string;
}): Promise<{ name: string; value: unknown }[]>;
