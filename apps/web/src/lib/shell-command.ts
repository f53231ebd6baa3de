/** `/bin/bash -lc '…'`, `bash -c "…"`, `sh -c '…'` and the like around a command. */
const WRAPPER =
  /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh\s+-l?c\s+(?:'((?:[^']|'\\'')*)'|"((?:[^"\\]|\\.)*)")$/s;

/**
 * B16: the command as the agent meant it, without the shell wrapper a runtime puts around it
 * (Codex runs `/bin/bash -lc 'npm test'`). The exact command stays one click away.
 */
export function unwrapShell(command: string): string {
  const match = WRAPPER.exec(command.trim());
  if (!match) return command;
  if (match[1] !== undefined) return match[1].replaceAll("'\\''", "'");
  return (match[2] ?? "").replace(/\\(["\\$`])/g, "$1");
}
