import { z } from "zod";
import { textProblem } from "./text.ts";

/**
 * The written form of a workspace folder (B4), the part of the rule that needs no filesystem, so
 * the API and the web UI's form judge a path the same way. The API then checks the folder itself
 * (it exists, is a directory, readable and writable, outside Skein's data dir).
 *
 * Paths are POSIX: absolute, already normalized (no `.`/`..`/empty segments, no trailing `/`),
 * without control characters or surrounding spaces. A path that needs normalizing is refused
 * rather than rewritten, so what is stored is exactly what the person wrote.
 */

export const MAX_WORKSPACE_PATH_LENGTH = 4096;

// C0 controls and DEL: never part of a folder someone types; NUL would truncate the path in C.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `/a/./b/../c/` → `/a/c`: what a person most likely meant, offered in the message. */
function lexicallyNormalized(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

/** Why `path` cannot name a workspace folder, in words, or null when its form is fine. */
export function workspacePathProblem(path: string): string | null {
  if (path === "") return "Enter the folder's absolute path, e.g. /home/me/code/my-repo.";
  const shown = JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
  if (path.length > MAX_WORKSPACE_PATH_LENGTH) {
    return `The folder path is longer than ${MAX_WORKSPACE_PATH_LENGTH} characters.`;
  }
  if (path.includes("\0")) {
    return `The folder path ${shown} contains a NUL character. Enter the path without it.`;
  }
  const broken = textProblem(path);
  if (broken !== null) return `The folder path ${shown} ${broken}.`;
  if (CONTROL.test(path)) {
    return `The folder path ${shown} contains a control character (a line break or tab?). Enter the path on one line.`;
  }
  if (path.trim() !== path) {
    return `The folder path ${shown} starts or ends with spaces. Remove them.`;
  }
  if (!path.startsWith("/")) {
    return `The folder path ${shown} is not absolute. Enter the full path, starting with "/".`;
  }
  if (path === "/" || lexicallyNormalized(path) === "/") {
    return "The folder / is the whole filesystem. Choose the folder of one project.";
  }
  const segments = path.slice(1).split("/");
  if (segments.some((s) => s === "." || s === ".." || s === "") || path.endsWith("/")) {
    return (
      `The folder path ${shown} is not normalized (it has "." or ".." parts, "//" or a trailing "/"). ` +
      `Write it as ${JSON.stringify(lexicallyNormalized(path))}.`
    );
  }
  return null;
}

/** A workspace folder's path as the API accepts it; the filesystem checks follow in the API. */
export const WorkspacePath = z.string().superRefine((path, ctx) => {
  const message = workspacePathProblem(path);
  if (message !== null) ctx.addIssue({ code: "custom", message });
});
