import { createHash } from "node:crypto";
import { readdirSync, readFileSync, realpathSync } from "node:fs";

/** Set on this process, so every provider process (and what those start) inherits it. */
export const OWNER_VARIABLE = "SKEIN_PROVIDER_OWNER";

type Owner = { key: string; pid: number; startTime: string };

/** The data dir's key: another Skein on another data dir is none of our business. */
export function dataDirKey(dataDir: string): string {
  let real = dataDir;
  try {
    real = realpathSync(dataDir);
  } catch {
    // not created yet: the path as given
  }
  return createHash("sha256").update(real).digest("hex").slice(0, 16);
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks); null when the process is gone. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is parenthesised and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function ownerOf(pid: number): Owner | null {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return null; // gone, or not ours to read
  }
  const entry = environ.split("\0").find((e) => e.startsWith(`${OWNER_VARIABLE}=`));
  const [key, ownerPid, startTime] = (entry?.slice(OWNER_VARIABLE.length + 1) ?? "").split(":");
  if (!key || !ownerPid || !startTime) return null;
  return { key, pid: Number(ownerPid), startTime };
}

/**
 * B1/issue 14: provider processes die with the API. The adapters start them under a parent-death
 * signal; this covers the rest (no setpriv, grandchildren, a platform without it). At start-up it
 * ends every process marked as started for this data dir by an API process that is no longer
 * alive (pid gone, or reused: start time differs), then marks this process as their owner.
 * Linux only (/proc); elsewhere it only sets the mark. Returns the pids it ended.
 */
export function sweepStaleProviderProcesses(dataDir: string): number[] {
  const key = dataDirKey(dataDir);
  const ended: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    entries = [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const owner = ownerOf(pid);
    if (!owner || owner.key !== key) continue;
    if (owner.pid === process.pid) continue;
    if (processStartTime(owner.pid) === owner.startTime) continue; // its API still runs
    try {
      process.kill(pid, "SIGKILL");
      ended.push(pid);
    } catch {
      // exited meanwhile
    }
  }
  const self = processStartTime(process.pid) ?? "0";
  process.env[OWNER_VARIABLE] = `${key}:${process.pid}:${self}`;
  return ended;
}
