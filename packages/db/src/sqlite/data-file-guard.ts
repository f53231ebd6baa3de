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
  /**
   * The file, held open for the header read before every write: opening and closing it each
   * time cost two more system calls per commit. It is the file `identity` names (taken from this
   * descriptor), so once the path still names that file, its header is what this reads.
   */
  private fd: number | null;
  /** The header read before every write lands here (one buffer, not one per commit). */
  private readonly head = Buffer.alloc(HEADER.length);

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, "r");
    const stat = fs.fstatSync(this.fd);
    this.identity = { dev: stat.dev, ino: stat.ino };
  }

  /** Lets go of the file (the store is closing). */
  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  /** Why the file cannot take writes now, in words; null when it can. */
  fault(): string | null {
    if (this.damaged !== null) return this.damaged;
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    if (stat === undefined) return `the data file ${this.file} was deleted while Skein was running`;
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
    const held = this.fd;
    let fd: number | null = held;
    try {
      fd ??= fs.openSync(this.file, "r");
      const read = fs.readSync(fd, this.head, 0, HEADER.length, 0);
      return read === HEADER.length && this.head.equals(HEADER);
    } catch {
      return false;
    } finally {
      if (fd !== null && fd !== held) fs.closeSync(fd);
    }
  }
}
