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

export type RotatingLog = RawEventSink & {
  /** The record behind an id, or undefined once its file has rotated away. */
  read(rawEventId: string): unknown;
  close(): void;
};

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
      const match = /^(raw-\d+\.jsonl):(\d+)$/.exec(rawEventId);
      if (match === null) return undefined;
      const [, name = "", lineText = "0"] = match;
      let text: string;
      try {
        text = fs.readFileSync(path.join(dir, name), "utf8");
      } catch {
        return undefined;
      }
      const line = text.split("\n")[Number(lineText) - 1];
      return line === undefined || line === "" ? undefined : JSON.parse(line);
    },
    close() {
      if (closed) return;
      closed = true;
      if (fd !== -1) fs.closeSync(fd);
    },
  };
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
