import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type BenchRow = {
  name: string;
  value: number;
  unit: string;
  target: string | number;
  pass: boolean;
};

/** Writes a bench's rows to bench/.rows/<file> at the repo root (for `pnpm bench`) and prints them. */
export function writeBenchRows(file: string, rows: readonly BenchRow[]): void {
  const rowsDir = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    "../../../bench/.rows",
  );
  mkdirSync(rowsDir, { recursive: true });
  writeFileSync(path.join(rowsDir, file), `${JSON.stringify(rows, null, 2)}\n`);
  for (const row of rows)
    console.log(`${row.name} ${row.value} ${row.unit} (target ${row.target})`);
}
