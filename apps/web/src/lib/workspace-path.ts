/**
 * B16: a path as a person reads it in a thread: relative to the thread's workspace ("./src/a.ts",
 * "the workspace" for the root itself); anything outside it stays absolute.
 */
export function workspaceRelative(path: string, workspace: string | null | undefined): string {
  if (!workspace) return path;
  const root = workspace.replace(/\/+$/, "");
  if (path === root) return "the workspace";
  return path.startsWith(`${root}/`) ? `./${path.slice(root.length + 1)}` : path;
}

/** Every absolute path under `workspace` in a line of text, made relative. */
export function relativizeText(text: string, workspace: string | null | undefined): string {
  if (!workspace) return text;
  const root = workspace.replace(/\/+$/, "");
  return text.replace(/(^|[\s'"=(])(\/[^\s'"),]*)/g, (whole, lead: string, path: string) =>
    path === root || path.startsWith(`${root}/`)
      ? `${lead}${workspaceRelative(path, root)}`
      : whole,
  );
}

/**
 * A diff of several files heads each file's lines with `@@ /abs/path @@`: those heads made
 * relative, the diff's own lines left exactly as they are.
 */
export function relativizeDiffHeads(diff: string, workspace: string | null | undefined): string {
  return diff.replace(
    /^@@ (\/.*) @@$/gm,
    (_line, path: string) => `@@ ${workspaceRelative(path, workspace)} @@`,
  );
}
