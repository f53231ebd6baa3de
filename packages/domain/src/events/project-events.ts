import { z } from "zod";
import { Project, ProjectSettings } from "../entities/project.ts";
import { ProviderSession, ProviderSessionStatus } from "../entities/provider-session.ts";
import { ProjectId, ProviderSessionId } from "../ids.ts";
import { defineEvent } from "./define.ts";

export const ProjectCreated = defineEvent("ProjectCreated", { project: Project });
export const ProjectRenamed = defineEvent("ProjectRenamed", {
  projectId: ProjectId,
  title: z.string().min(1).max(200),
});
/** Issue 26: the project's settings as they are now (every one of them). */
export const ProjectSettingsUpdated = defineEvent("ProjectSettingsUpdated", {
  projectId: ProjectId,
  settings: ProjectSettings,
});
export const ProjectArchived = defineEvent("ProjectArchived", { projectId: ProjectId });
export const ProjectDeleted = defineEvent("ProjectDeleted", { projectId: ProjectId });

export const ProviderSessionOpened = defineEvent("ProviderSessionOpened", {
  session: ProviderSession,
});
export const ProviderSessionStatusChanged = defineEvent("ProviderSessionStatusChanged", {
  providerSessionId: ProviderSessionId,
  status: ProviderSessionStatus,
  lastError: z.string().nullable(),
});
