import { z } from "zod";
import { ProjectId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

/**
 * B14: where a new thread of a git project works. `worktree`: its own git worktree on its own
 * branch (the default), so threads running at once never edit each other's files; `local`: the
 * project's folder itself, shared with every other local thread.
 */
export const ThreadWorkspaceMode = z.enum(["worktree", "local"]);
export type ThreadWorkspaceMode = z.infer<typeof ThreadWorkspaceMode>;

/**
 * A file (or `*` pattern on the last path segment, e.g. `.env*`, `config/*.local.json`) copied
 * from the project's folder into each new worktree: relative, no `..`, no NUL.
 */
export const CopyPattern = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine(
    (p) =>
      !p.includes("\0") &&
      !p.startsWith("/") &&
      !p.split(/[\\/]/).some((segment) => segment === ".." || segment === ""),
    "a file to copy is a path relative to the project's folder, without '..'",
  );

/** Ports a thread's runtime gets as `PORT`, one per thread, inclusive. */
export const PortRange = z
  .object({
    from: z.number().int().min(1024).max(65535),
    to: z.number().int().min(1024).max(65535),
  })
  .refine((r) => r.from <= r.to, "a port range's `from` is at most its `to`")
  .refine((r) => r.to - r.from < 10_000, "a port range holds at most 10000 ports");
export type PortRange = z.infer<typeof PortRange>;

/** B17: a GitHub repository as `owner/name`. */
export const GitHubRepositoryName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "a GitHub repository is written owner/name");

/**
 * Issue 25 item 3: who writes a transfer's handoff when the request names no writer. `skein`:
 * Skein's deterministic builder; `provider`: the source provider on a side turn of a native fork
 * of its thread (Skein's handoff stands in, with the reason, when it cannot or fails).
 */
export const HandoffWriter = z.enum(["skein", "provider"], {
  error: "who writes handoffs is 'skein' or 'provider'",
});
export type HandoffWriter = z.infer<typeof HandoffWriter>;

/** How a project's threads get and prepare their workspace (issue 26 item 3). */
export const ProjectSettings = z.object({
  threadWorkspace: ThreadWorkspaceMode,
  /** Run once in each new worktree (`sh -c`), e.g. `pnpm install`; null: nothing to run. */
  setupScript: z.string().min(1).max(10_000).nullable(),
  /** Copied from the project's folder into each new worktree; never over an existing file. */
  copyFiles: z.array(CopyPattern).max(50),
  /** Each thread's `PORT`; null: threads get none. */
  portRange: PortRange.nullable(),
  /**
   * B17: the repository pull requests go to when the push remote's URL does not name one (a
   * mirror, a proxy); null or absent: read from the remote. Optional: older settings lack it.
   */
  githubRepository: GitHubRepositoryName.nullable().optional(),
  /** Issue 25 item 3: the default writer of handoffs. Optional: older settings lack it. */
  handoffWriter: HandoffWriter.optional(),
});
export type ProjectSettings = z.infer<typeof ProjectSettings>;
export const ProjectSettingsPatch = ProjectSettings.partial();
export type ProjectSettingsPatch = z.infer<typeof ProjectSettingsPatch>;

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  threadWorkspace: "worktree",
  setupScript: null,
  copyFiles: [".env*"],
  portRange: { from: 3100, to: 3199 },
  githubRepository: null,
  handoffWriter: "skein",
};

export const Project = z.object({
  id: ProjectId,
  title: z.string().min(1).max(200),
  /** The workspace root every thread of the project works in unless it has a worktree. */
  workspaceRoot: z.string().min(1),
  defaultProvider: ProviderKind.nullable(),
  /** Absent on projects made before settings existed: `DEFAULT_PROJECT_SETTINGS`. */
  settings: ProjectSettings.optional(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  archivedAt: IsoTimestamp.nullable(),
  deletedAt: IsoTimestamp.nullable(),
});
export type Project = z.infer<typeof Project>;

/** The project's settings with the defaults filled in. */
export function projectSettingsOf(project: { settings?: ProjectSettingsPatch }): ProjectSettings {
  const given = Object.entries(project.settings ?? {}).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_PROJECT_SETTINGS, ...Object.fromEntries(given) };
}
