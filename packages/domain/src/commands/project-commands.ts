import { z } from "zod";
import { NameText } from "../inputs/text.ts";
import { WorkspacePath } from "../inputs/workspace-path.ts";
import { ProviderKind } from "../entities/common.ts";
import { ProjectSettingsPatch } from "../entities/project.ts";
import { ProviderCapabilities, ProviderSessionStatus } from "../entities/provider-session.ts";
import { ProjectId, ProviderSessionId } from "../ids.ts";
import { defineCommand } from "./define.ts";

export const CreateProject = defineCommand("CreateProject", {
  projectId: ProjectId,
  title: NameText,
  workspaceRoot: WorkspacePath,
  defaultProvider: ProviderKind.nullable().optional(),
  /** Issue 26: what differs from `DEFAULT_PROJECT_SETTINGS`. */
  settings: ProjectSettingsPatch.optional(),
});
/** Issue 26: changes the given settings; the others keep their values. */
export const UpdateProjectSettings = defineCommand("UpdateProjectSettings", {
  projectId: ProjectId,
  settings: ProjectSettingsPatch,
});
export const RenameProject = defineCommand("RenameProject", {
  projectId: ProjectId,
  title: NameText,
});
export const ArchiveProject = defineCommand("ArchiveProject", { projectId: ProjectId });
/** Issue 33: a soft delete; the orchestrator deletes the project's threads first. */
export const DeleteProject = defineCommand("DeleteProject", { projectId: ProjectId });

export const OpenProviderSession = defineCommand("OpenProviderSession", {
  providerSessionId: ProviderSessionId,
  provider: ProviderKind,
  cwd: z.string().min(1),
  model: z.string().min(1).nullable().optional(),
  capabilities: ProviderCapabilities,
  /** The instance opening the runtime; the edge supplies it, like ids (decide reads no host). */
  owner: z.string().min(1).nullable().optional(),
});
export const ChangeProviderSessionStatus = defineCommand("ChangeProviderSessionStatus", {
  providerSessionId: ProviderSessionId,
  status: ProviderSessionStatus,
  lastError: z.string().nullable().optional(),
});
