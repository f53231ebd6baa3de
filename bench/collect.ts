// Root side of `pnpm bench`. Each package's `bench` script (run by `turbo run bench
// --concurrency=1`, one at a time so they do not skew each other) writes its rows to
// bench/.rows/<package>.json as a JSON array of { name, value, unit, target, pass }.
// `tsx bench/collect.ts --reset` clears those files before a run; without flags this merges them
// into bench/results.json (committed) and prints a table; with --merge it replaces only the rows
// found (after rerunning some benches). Benches report, they never fail the run.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A bare number target is a bound whose direction `pass` already encodes (≤ for times, ≥ for ratios).
type Row = { name: string; value: number; unit: string; target: string | number; pass: boolean };

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROWS_DIR = path.join(BENCH_DIR, ".rows");
const RESULTS = path.join(BENCH_DIR, "results.json");

function isRow(value: unknown): value is Row {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.name === "string" &&
    typeof row.value === "number" &&
    typeof row.unit === "string" &&
    (typeof row.target === "string" || typeof row.target === "number") &&
    typeof row.pass === "boolean"
  );
}

function readRows(): Row[] {
  const files = fs.existsSync(ROWS_DIR)
    ? fs
        .readdirSync(ROWS_DIR)
        .filter((name) => name.endsWith(".json"))
        .sort()
    : [];
  const rows: Row[] = [];
  const owner = new Map<string, string>();
  for (const file of files) {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(ROWS_DIR, file), "utf8"));
    if (!Array.isArray(parsed) || !parsed.every(isRow)) {
      throw new Error(
        `bench/.rows/${file}: expected an array of { name, value, unit, target, pass }`,
      );
    }
    for (const row of parsed) {
      const previous = owner.get(row.name);
      if (previous !== undefined)
        throw new Error(`bench row ${row.name} written by ${previous} and ${file}`);
      owner.set(row.name, file);
      rows.push(row);
    }
  }
  return rows;
}

function printTable(rows: readonly Row[]): void {
  const cells = rows.map((row) => [
    row.name,
    String(row.value),
    row.unit,
    String(row.target),
    row.pass ? "pass" : "FAIL",
  ]);
  const header = ["name", "value", "unit", "target", "result"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const format = (line: readonly string[]) =>
    line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  console.log(format(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of cells) console.log(format(line));
}

function mergedWithResults(fresh: readonly Row[]): Row[] {
  const previous: unknown = fs.existsSync(RESULTS)
    ? JSON.parse(fs.readFileSync(RESULTS, "utf8"))
    : [];
  const kept = Array.isArray(previous) ? previous.filter(isRow) : [];
  const byName = new Map(kept.map((row) => [row.name, row]));
  for (const row of fresh) byName.set(row.name, row);
  return [...byName.values()];
}

if (process.argv.includes("--reset")) {
  fs.rmSync(ROWS_DIR, { recursive: true, force: true });
} else {
  const fresh = readRows();
  if (fresh.length === 0) console.warn("no bench rows found in bench/.rows");
  // --merge: a rerun of some benches replaces their rows and keeps the others' last figures.
  const rows = process.argv.includes("--merge") ? mergedWithResults(fresh) : fresh;
  fs.writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`);
  printTable(rows);
  const failed = rows.filter((row) => !row.pass).length;
  console.log(`\n${rows.length} figures, ${failed} below target → bench/results.json`);
}
