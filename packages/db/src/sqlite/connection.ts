import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

export type SqliteDatabase = Database.Database;

export const DEFAULT_FILENAME = "skein.db";
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** `$SKEIN_DATA_DIR`, else `~/.skein`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SKEIN_DATA_DIR;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : path.join(os.homedir(), ".skein");
}

export function openWriter(file: string, busyTimeoutMs: number): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma("journal_mode = WAL");
  // In WAL mode NORMAL loses nothing on a process crash (only on power loss / OS crash), and it
  // drops the fsync from every commit.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  return db;
}

/** A read connection for snapshots; WAL lets it hold a read transaction while the writer commits. */
export function openReader(file: string, busyTimeoutMs: number): SqliteDatabase {
  const db = new Database(file, { readonly: true, timeout: busyTimeoutMs });
  return db;
}
