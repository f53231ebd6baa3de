import fs from "node:fs";
import { StoreUnavailableError } from "../errors.ts";

const HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** SQLite's result codes for a damaged file (extended codes start with these). */
const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * Issue 35: the embedded store's data file, watched before every write. SQLite keeps writing
 * into a file deleted under it (its descriptor stays open) and into one whose header was
 * overwritten (its pages are cached), so a write would be acknowledged that no restart can
 * read. The guard refuses writes once the file is gone, replaced or damaged, and says why.
 */
export class DataFileGuard {
  private readonly identity: { dev: number; ino: number };
  private damaged: string | null = null;

  constructor(private readonly file: string) {
    const stat = fs.statSync(file);
    this.identity = { dev: stat.dev, ino: stat.ino };
  }

  /** Why the file cannot take writes now, in words; null when it can. */
  fault(): string | null {
    if (this.damaged !== null) return this.damaged;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return `the data file ${this.file} was deleted while Skein was running`;
    }
    if (stat.dev !== this.identity.dev || stat.ino !== this.identity.ino) {
      return `the data file ${this.file} was replaced by another file while Skein was running`;
    }
    if (!this.headerIntact()) {
      this.damaged = `the data file ${this.file} is damaged (its SQLite header was overwritten)`;
    }
    return this.damaged;
  }

  /** Throws the fault as StoreUnavailableError, if there is one. */
  check(): void {
    const why = this.fault();
    if (why !== null) throw new StoreUnavailableError(why);
  }

  /** A damaged-file error from SQLite becomes the store's fault, and stays one. */
  translate(error: unknown): unknown {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !DAMAGED.test(code)) return error;
    this.damaged = `the data file ${this.file} is damaged (${(error as Error).message})`;
    return new StoreUnavailableError(this.damaged, { cause: error });
  }

  private headerIntact(): boolean {
    let fd: number | null = null;
    try {
      fd = fs.openSync(this.file, "r");
      const head = Buffer.alloc(HEADER.length);
      fs.readSync(fd, head, 0, HEADER.length, 0);
      return head.equals(HEADER);
    } catch {
      return false;
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
  }
}
