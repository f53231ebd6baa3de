// Root side of `pnpm bench`. Each package's `bench` script (run by `turbo run bench
// --concurrency=1`, one at a time so they do not skew each other) writes its rows to
// bench/.rows/<package>.json as a JSON array of { name, value, unit, target, pass }.
// `tsx bench/collect.ts --reset` clears those files before a run; without flags this writes them
// to bench/results.json (committed) and prints a table. results.json is one run's figures: a row
// of the last results that no bench wrote this time (its bench crashed or did not run) is written
// as failed with no value, never carried over, and the collector then exits 1. Rows below target
// are reported, they never fail the run. A row dropped on purpose is deleted from results.json
// by hand.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A bare number target is a bound whose direction `pass` already encodes (≤ for times, ≥ for ratios).
type Row = { name: string; value: number; unit: string; target: string | number; pass: boolean };
/** A row of the last results that this run did not measure. */
type FailedRow = Omit<Row, "value" | "pass"> & { value: null; pass: false; error: string };
type ResultRow = Row | FailedRow;
const NOT_MEASURED = "not measured in this run (its bench crashed or did not run)";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROWS_DIR = path.join(BENCH_DIR, ".rows");
const RESULTS = path.join(BENCH_DIR, "results.json");

function isRow(value: unknown): value is Row {
  return isResultRow(value) && typeof value.value === "number";
}

function isResultRow(value: unknown): value is ResultRow {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.name === "string" &&
    (typeof row.value === "number" || row.value === null) &&
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

function printTable(rows: readonly ResultRow[]): void {
  const cells = rows.map((row) => [
    row.name,
    row.value === null ? "-" : String(row.value),
    row.unit,
    String(row.target),
    row.value === null ? "NOT MEASURED" : row.pass ? "pass" : "FAIL",
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

/**
 * This run's rows in the last results' order (new rows after), and every row of the last results
 * it did not measure, as failed: a figure is never carried from one run into the next.
 */
function withUnmeasured(fresh: readonly Row[]): ResultRow[] {
  const previous: unknown = fs.existsSync(RESULTS)
    ? JSON.parse(fs.readFileSync(RESULTS, "utf8"))
    : [];
  const last = Array.isArray(previous) ? previous.filter(isResultRow) : [];
  const byName = new Map<string, ResultRow>(
    last.map((row) => [
      row.name,
      {
        name: row.name,
        value: null,
        unit: row.unit,
        target: row.target,
        pass: false,
        error: NOT_MEASURED,
      },
    ]),
  );
  for (const row of fresh) byName.set(row.name, row);
  return [...byName.values()];
}

if (process.argv.includes("--merge")) {
  console.error(
    "bench/collect.ts --merge is gone: bench/results.json holds the rows of one whole run " +
      "(`pnpm bench`); a bench rerun alone prints its rows.",
  );
  process.exit(2);
}
if (process.argv.includes("--reset")) {
  fs.rmSync(ROWS_DIR, { recursive: true, force: true });
} else {
  const fresh = readRows();
  if (fresh.length === 0) console.warn("no bench rows found in bench/.rows");
  const rows = withUnmeasured(fresh);
  fs.writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`);
  printTable(rows);
  const unmeasured = rows.filter((row) => row.value === null).map((row) => row.name);
  const below = rows.filter((row) => row.value !== null && !row.pass).length;
  console.log(`\n${rows.length} figures, ${below} below target → bench/results.json`);
  if (unmeasured.length > 0) {
    console.error(`${unmeasured.length} rows not measured in this run: ${unmeasured.join(", ")}`);
    process.exitCode = 1;
  }
}
