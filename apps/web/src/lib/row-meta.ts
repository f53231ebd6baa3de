import { PROVIDER_LABEL } from "./format.ts";
import type { ProviderKind } from "./types.ts";

type RowMetaInput = {
  defaultProvider: ProviderKind;
  lastRunProvider?: ProviderKind | undefined;
  branch: string | null;
  worktreePath: string | null;
};

/**
 * The provider a row names: the latest run's (what ran), or the thread's default before any run
 * (what will run), said apart in the tooltip so the mark never claims a run that did not happen.
 */
export function rowProvider(shell: RowMetaInput): { label: string; title: string } {
  if (shell.lastRunProvider !== undefined) {
    const label = PROVIDER_LABEL[shell.lastRunProvider] ?? shell.lastRunProvider;
    return { label, title: `Latest run on ${label}` };
  }
  const label = PROVIDER_LABEL[shell.defaultProvider] ?? shell.defaultProvider;
  return { label, title: `${label}, no run yet` };
}

/**
 * Where the thread works: its branch (`skein/<thread>` for its own worktree), else its worktree's
 * folder name (a detached worktree), else null (the project's folder as it is).
 */
export function rowWorkspace(shell: RowMetaInput): string | null {
  if (shell.branch !== null && shell.branch !== "") return shell.branch;
  if (shell.worktreePath === null) return null;
  const parts = shell.worktreePath.split(/[\\/]/).filter((part) => part !== "");
  return parts.at(-1) ?? null;
}
