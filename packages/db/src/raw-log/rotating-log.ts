import fs from "node:fs";
import path from "node:path";

/** Where adapters put raw provider frames (E18, S3): diagnostics, never app state. */
export interface RawEventSink {
  /** Appends one record; returns its id (`<file>:<line>`) for cross-reference from events. */
  record(entry: unknown): string;
}

export type RotatingLogOptions = {
  dir: string;
  /** A file is closed before a record would take it past this size. */
  maxFileBytes: number;
  /** Files kept; the oldest is deleted when a new one starts. Total ≤ maxFiles × maxFileBytes. */
  maxFiles: number;
};

/** One record read back, under the id `record` returned for it. */
export type RawLogRecord = { rawEventId: string; record: unknown };

/** Reading the log back (B8: from an item to the frames it came from). */
export type RawLogReader = {
  /** The record behind an id, or undefined once its file has rotated away. */
  read(rawEventId: string): unknown;
  /** The records behind several ids, reading each file once; rotated or unknown ids are absent. */
  readMany(rawEventIds: readonly string[]): Map<string, unknown>;
  /**
   * The records from `first` to `last` inclusive, in log order, keeping those `keep` accepts, at
   * most `limit` of them; what has rotated away is skipped. Malformed ids read nothing.
   */
  readRange(
    first: string,
    last: string,
    options?: { limit?: number; keep?: (record: unknown) => boolean },
  ): RawLogRecord[];
};

export type RotatingLog = RawEventSink & RawLogReader & { close(): void };

const FILE_PATTERN = /^raw-(\d{6,})\.jsonl$/;

export function rawLogFileName(index: number): string {
  return `raw-${String(index).padStart(6, "0")}.jsonl`;
}

/**
 * JSON-lines files `raw-000001.jsonl`, `raw-000002.jsonl`, … written synchronously so an id is
 * valid as soon as it is returned. A reopened log starts a new file after the newest one, so
 * earlier ids stay valid until rotation removes their file. A record too large for a file on its
 * own is replaced by a stub saying so, which keeps the size bound strict.
 */
export function createRotatingLog(options: RotatingLogOptions): RotatingLog {
  const { dir, maxFileBytes, maxFiles } = options;
  if (!Number.isSafeInteger(maxFiles) || maxFiles < 1) throw new RangeError("maxFiles must be ≥ 1");
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 256) {
    throw new RangeError("maxFileBytes must be ≥ 256");
  }
  fs.mkdirSync(dir, { recursive: true });
  const existing = listIndexes(dir);
  let index = (existing.at(-1) ?? 0) + 1;
  let fd = -1;
  let bytes = 0;
  let lines = 0;
  let closed = false;

  const startFile = (): void => {
    if (fd !== -1) {
      fs.closeSync(fd);
      index += 1;
    }
    fd = fs.openSync(path.join(dir, rawLogFileName(index)), "a");
    bytes = 0;
    lines = 0;
    for (const old of listIndexes(dir)) {
      if (old <= index - maxFiles) fs.rmSync(path.join(dir, rawLogFileName(old)), { force: true });
    }
  };

  return {
    record(entry) {
      if (closed) throw new Error("raw event log is closed");
      let line = `${safeJson(entry)}\n`;
      let size = Buffer.byteLength(line);
      if (size > maxFileBytes) {
        line = `${JSON.stringify({ truncated: true, originalBytes: size })}\n`;
        size = Buffer.byteLength(line);
      }
      if (fd === -1 || bytes + size > maxFileBytes) startFile();
      fs.writeSync(fd, line);
      bytes += size;
      lines += 1;
      return `${rawLogFileName(index)}:${lines}`;
    },
    read(rawEventId) {
      const at = parseId(rawEventId);
      if (at === null) return undefined;
      const line = fileLines(dir, at.index)[at.line - 1];
      return line === undefined || line === "" ? undefined : JSON.parse(line);
    },
    readMany(rawEventIds) {
      const found = new Map<string, unknown>();
      const byFile = new Map<number, Array<{ id: string; line: number }>>();
      for (const id of new Set(rawEventIds)) {
        const at = parseId(id);
        if (at !== null)
          byFile.set(at.index, [...(byFile.get(at.index) ?? []), { id, line: at.line }]);
      }
      for (const [fileIndex, wanted] of byFile) {
        const lines = fileLines(dir, fileIndex);
        for (const { id, line } of wanted) {
          const text = lines[line - 1];
          if (text !== undefined && text !== "") found.set(id, JSON.parse(text));
        }
      }
      return found;
    },
    readRange(first, last, options = {}) {
      const from = parseId(first);
      const to = parseId(last);
      if (from === null || to === null) return [];
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      const out: RawLogRecord[] = [];
      for (const fileIndex of listIndexes(dir)) {
        if (fileIndex < from.index || fileIndex > to.index) continue;
        const lines = fileLines(dir, fileIndex);
        const start = fileIndex === from.index ? from.line : 1;
        const end = fileIndex === to.index ? Math.min(to.line, lines.length) : lines.length;
        for (let line = start; line <= end && out.length < limit; line += 1) {
          const text = lines[line - 1];
          if (text === undefined || text === "") continue;
          const record = JSON.parse(text) as unknown;
          if (options.keep && !options.keep(record)) continue;
          out.push({ rawEventId: `${rawLogFileName(fileIndex)}:${line}`, record });
        }
      }
      return out;
    },
    close() {
      if (closed) return;
      closed = true;
      if (fd !== -1) fs.closeSync(fd);
    },
  };
}

/**
 * Log order of two ids of this log (negative: `a` was written first); null when either is not
 * one of its ids.
 */
export function compareRawEventIds(a: string, b: string): number | null {
  const x = parseId(a);
  const y = parseId(b);
  if (x === null || y === null) return null;
  return x.index - y.index || x.line - y.line;
}

function parseId(rawEventId: string): { index: number; line: number } | null {
  const match = /^raw-(\d{6,})\.jsonl:(\d+)$/.exec(rawEventId);
  if (match === null) return null;
  return { index: Number(match[1]), line: Number(match[2]) };
}

/** A file's lines; none once it has rotated away. */
function fileLines(dir: string, index: number): string[] {
  try {
    return fs.readFileSync(path.join(dir, rawLogFileName(index)), "utf8").split("\n");
  } catch {
    return [];
  }
}

function listIndexes(dir: string): number[] {
  return fs
    .readdirSync(dir)
    .map((name) => FILE_PATTERN.exec(name)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function safeJson(entry: unknown): string {
  try {
    return JSON.stringify(entry) ?? "null";
  } catch (error) {
    // A frame that cannot be serialized is still worth a trace in the log.
    return JSON.stringify({ unserializable: String(error) });
  }
}
