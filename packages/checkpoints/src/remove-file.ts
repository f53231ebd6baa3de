import { unlink } from "node:fs/promises";

/**
 * Removes a file that may already be gone. `rm(file, { force: true })` walks it as a tree first
 * (an lstat before the unlink): a second system call for each of the several scratch files every
 * capture removes, on the server's event loop.
 */
export async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
