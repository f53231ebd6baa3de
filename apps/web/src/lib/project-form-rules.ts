import { nameProblem, workspacePathProblem } from "@skein/domain/inputs";

/**
 * What the new-project form refuses before any call, by the API's own rule (B4): the written
 * form of the workspace path and a name without NUL or broken characters. The folder itself
 * (exists, readable and writable, outside Skein's data dir) only the API can check.
 */
export function projectFormProblem(name: string, workspaceRoot: string): string | null {
  const path = workspacePathProblem(workspaceRoot);
  if (path !== null) return path;
  const badName = nameProblem(name);
  return badName === null ? null : `The name ${badName}.`;
}
