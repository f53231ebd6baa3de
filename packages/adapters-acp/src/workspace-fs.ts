import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";

/** A file request outside the thread's folder (or otherwise unanswerable), in words. */
export class WorkspaceFsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspaceFsError";
  }
}

/** The file asked for does not exist (inside the folder): the agent may create it. */
export class WorkspaceFileMissing extends WorkspaceFsError {
  constructor(path: string) {
    super(`cannot read ${path}: ENOENT`);
    this.name = "WorkspaceFileMissing";
  }
}

/**
 * Answers an agent's file request. A missing file is ACP's "Resource not found" (-32002): agents
 * read that as "no such file" (Gemini CLI's write_file checks for the file first and creates it
 * only on that answer; a generic internal error made every new file fail). Other errors go back
 * as they were thrown.
 */
export async function answerFileRequest<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WorkspaceFileMissing) throw RequestError.resourceNotFound(path);
    throw error;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The nearest path at or above `path` that exists. */
async function nearestExisting(path: string): Promise<string> {
  let current = path;
  for (;;) {
    try {
      await realpath(current);
      return current;
    } catch {
      const parent = dirname(current);
      if (parent === current) throw new WorkspaceFsError(`no existing folder above ${path}`);
      current = parent;
    }
  }
}

/**
 * Resolves an agent's path and refuses anything that lands outside the workspace, through
 * symlinks included: the agent may only touch the thread's folder.
 */
export async function workspacePath(workspace: string, path: string): Promise<string> {
  if (!isAbsolute(path)) throw new WorkspaceFsError(`path must be absolute: ${path}`);
  const root = await realpath(workspace);
  const target = resolve(path);
  const existing = await nearestExisting(target);
  const resolved = resolve(await realpath(existing), relative(existing, target));
  if (!inside(root, resolved)) {
    throw new WorkspaceFsError(`${path} is outside the thread's folder ${workspace}`);
  }
  return resolved;
}

/** `fs/read_text_file`: the file's text, or `limit` lines from the 1-based `line`. */
export async function readWorkspaceFile(
  workspace: string,
  request: { path: string; line?: number | null; limit?: number | null },
): Promise<string> {
  const path = await workspacePath(workspace, request.path);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new WorkspaceFileMissing(request.path);
    throw new WorkspaceFsError(`cannot read ${request.path}: ${error.code ?? error.message}`);
  });
  if (request.line == null && request.limit == null) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (request.line ?? 1) - 1);
  const end = request.limit == null ? lines.length : start + Math.max(0, request.limit);
  return lines.slice(start, end).join("\n");
}

/** `fs/write_text_file`: writes the file (creating its folders) inside the workspace only. */
export async function writeWorkspaceFile(
  workspace: string,
  request: { path: string; content: string },
): Promise<void> {
  const path = await workspacePath(workspace, request.path);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, request.content, "utf8");
}
