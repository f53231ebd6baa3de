// @ts-check
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * @typedef {{ role: "user" | "assistant", content: Array<Record<string, unknown>> }} Message
 * @typedef {{ id: string, messages: Message[] }} Turn
 * @typedef {{ id: string, cwd: string, turns: Turn[] }} Thread
 */

/**
 * The runtime's threads, one JSON file each under its home folder, so a thread outlives the
 * process that ran it (resume) and a fork or rollback is a copy or a cut of its turn list.
 */
export class ThreadStore {
  /** @param {string} home */
  constructor(home) {
    this.dir = join(home, "threads");
  }

  /** @param {string} cwd @returns {Promise<Thread>} */
  async create(cwd, turns = /** @type {Turn[]} */ ([])) {
    const thread = { id: `thr_${randomUUID()}`, cwd, turns };
    await this.save(thread);
    return thread;
  }

  /** @param {string} id @returns {Promise<Thread>} */
  async load(id) {
    if (!/^thr_[0-9a-f-]{36}$/.test(id)) throw new Error(`no thread ${id}`);
    const text = await readFile(join(this.dir, `${id}.json`), "utf8").catch(() => null);
    if (text === null) throw new Error(`no thread ${id}`);
    return JSON.parse(text);
  }

  /** Writes through a temporary file: a killed runtime leaves the previous thread whole. */
  /** @param {Thread} thread */
  async save(thread) {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${thread.id}.json`);
    await writeFile(`${path}.tmp`, JSON.stringify(thread));
    await rename(`${path}.tmp`, path);
  }
}

/**
 * The turns up to and including `turnId` (null: none).
 * @param {Thread} thread @param {string | null} turnId @returns {Turn[]}
 */
export function turnsThrough(thread, turnId) {
  if (turnId === null) return [];
  const at = thread.turns.findIndex((turn) => turn.id === turnId);
  if (at < 0) throw new Error(`thread ${thread.id} has no turn ${turnId}`);
  return thread.turns.slice(0, at + 1);
}
