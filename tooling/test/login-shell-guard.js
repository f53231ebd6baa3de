import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A machine trap, not a Skein behaviour: Codex runs commands in login shells (`bash -lc`), and on
 * machines whose ~/.bashrc runs `pyenv init`, a shell killed mid-`pyenv rehash` (tests SIGKILL API
 * processes mid-run on purpose) leaves pyenv's lock file behind. Every later login shell then
 * waits 60 s for it, so Codex commands outlive their turns and unrelated tests time out. While a
 * test run lasts, a lock older than any real rehash is removed. Nothing else is touched.
 */
const LOCK = path.join(
  process.env.PYENV_ROOT ?? path.join(os.homedir(), ".pyenv"),
  "shims",
  ".pyenv-shim",
);
const STALE_MS = 15_000;
const EVERY_MS = 2_000;

function removeStaleLock() {
  try {
    if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_MS) fs.rmSync(LOCK, { force: true });
  } catch {
    // No lock (the usual case), or it went away meanwhile.
  }
}

export default function setup() {
  if (!fs.existsSync(path.dirname(LOCK))) return undefined;
  removeStaleLock();
  const timer = setInterval(removeStaleLock, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
