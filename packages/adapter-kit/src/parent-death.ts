import { accessSync, constants } from "node:fs";

const SETPRIV_PATHS = ["/usr/bin/setpriv", "/bin/setpriv"];
let setpriv: string | null | undefined;

function findSetpriv(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== "linux") return setpriv;
  for (const candidate of SETPRIV_PATHS) {
    try {
      accessSync(candidate, constants.X_OK);
      setpriv = candidate;
      break;
    } catch {
      // not here
    }
  }
  return setpriv;
}

function isExecutable(command: string): boolean {
  if (!command.startsWith("/")) return true;
  try {
    accessSync(command, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The command line that runs `command` so the kernel SIGKILLs it the moment this process dies,
 * even by SIGKILL (Linux `PR_SET_PDEATHSIG`, set by util-linux `setpriv`, which then execs the
 * command under the same pid). Node cannot call prctl itself. Elsewhere, or without setpriv, the
 * command runs as is and relies on its stdin closing; the API's start-up sweep ends what is left.
 */
export function withParentDeathSignal(
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const wrapper = findSetpriv();
  // A missing executable must still fail as a spawn error naming it, not as setpriv's exit 127.
  if (wrapper === null || process.env.SKEIN_NO_PDEATHSIG === "1" || !isExecutable(command)) {
    return { command, args: [...args] };
  }
  return { command: wrapper, args: ["--pdeathsig", "SIGKILL", "--", command, ...args] };
}
