/**
 * B9 compare: the check command (e.g. `pnpm test`) a person last ran on a project's forks, kept
 * per project in this browser's localStorage. Projects have no test-command setting, so this is
 * where the field's value comes from; a command the person never ran is empty.
 */
const KEY = "skein.compare.checkCommand.";

export function readCheckCommand(projectId: string): string {
  try {
    return window.localStorage.getItem(KEY + projectId) ?? "";
  } catch {
    // Storage can be disabled (private mode, policies): the field starts empty.
    return "";
  }
}

export function writeCheckCommand(projectId: string, command: string): void {
  try {
    window.localStorage.setItem(KEY + projectId, command);
  } catch {
    // Not remembered across reloads, which is all storage would have added.
  }
}
