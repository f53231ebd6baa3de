// `pnpm --filter @skein/db bench`: measures this package's rows and writes them to
// <repo>/bench/.rows/db.json, which the root collector (bench/collect.ts) merges.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchAppendRatio } from "./append-ratio.ts";
import { benchFanout } from "./fanout.ts";
import { benchPgAppendRatio } from "./pg-append-ratio.ts";
import { benchPrismaReads } from "./prisma-reads.ts";
import { benchSnapshots } from "./snapshots.ts";
import { benchTurnAppend } from "./turn-append.ts";

const ROWS_DIR =
  process.env.SKEIN_BENCH_ROWS_DIR ??
  fileURLToPath(new URL("../../../bench/.rows", import.meta.url));
const ROWS_FILE = path.join(ROWS_DIR, "db.json");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "skein-db-bench-"));
try {
  const rows = [
    ...(await benchAppendRatio(scratch)),
    ...(await benchTurnAppend(scratch)),
    ...(await benchPgAppendRatio()),
    ...(await benchSnapshots()),
    ...(await benchFanout()),
    ...(await benchPrismaReads()),
  ];
  fs.mkdirSync(path.dirname(ROWS_FILE), { recursive: true });
  fs.writeFileSync(ROWS_FILE, `${JSON.stringify(rows, null, 2)}\n`);
  console.table(rows);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
