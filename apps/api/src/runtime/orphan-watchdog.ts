import { spawn } from "node:child_process";
import { OWNER_VARIABLE } from "./provider-processes.ts";

/** How often the watchdog looks for the API. */
const POLL_SECONDS = "0.2";
/**
 * SIGTERM first, SIGKILL after this: a shell killed outright leaves its locks behind (a login
 * shell's `pyenv rehash` lock made every later login shell wait 60 s, so Codex's commands did).
 */
const GRACE_SECONDS = "0.3";

// Waits for the API's process to go, then ends every process that still carries its owner mark.
// POSIX sh and GNU grep only: this must cost nothing while the API runs (no second Node), and
// one grep reads every environ at once (a grep per process takes seconds on a loaded machine).
// A zombie counts as gone: its parent may not have reaped it yet.
const SCRIPT = `
alive() {
  read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
  rest=\${stat##*) }
  [ "\${rest%% *}" != Z ]
}
while alive "$SKEIN_WATCHED_PID"; do sleep ${POLL_SECONDS}; done
marked() {
  for file in $(grep -lzxF "${OWNER_VARIABLE}=$SKEIN_WATCHED_MARK" /proc/[0-9]*/environ 2>/dev/null); do
    pid=\${file#/proc/}
    echo "\${pid%/environ}"
  done
}
pids=$(marked)
[ -n "$pids" ] || exit 0
kill -TERM $pids 2>/dev/null
sleep ${GRACE_SECONDS}
pids=$(marked)
[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
exit 0
`;

/**
 * B1/issue 14: the adapters start provider processes under a parent-death signal, but what those
 * start (Codex's shell snapshot, a command's children) does not inherit it and outlives a SIGKILL
 * of the API. A detached shell watches the API and ends every process carrying this API's owner
 * mark once it is gone. Linux only (/proc); call after the mark is set.
 */
export function startOrphanWatchdog(): void {
  const mark = process.env[OWNER_VARIABLE];
  if (process.platform !== "linux" || !mark) return;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SKEIN_WATCHED_PID: String(process.pid),
    SKEIN_WATCHED_MARK: mark,
  };
  // The watchdog must not carry the mark itself: a later sweep would take it for a provider.
  delete env[OWNER_VARIABLE];
  const watchdog = spawn("/bin/sh", ["-c", SCRIPT], { detached: true, stdio: "ignore", env });
  watchdog.on("error", () => {}); // no shell: the start-up sweep still ends leftovers later
  watchdog.unref();
}
