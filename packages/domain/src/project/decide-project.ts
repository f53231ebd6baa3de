import type { CommandData, ProjectCommand } from "../commands.ts";
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  type DecideResult,
  guarded,
  ValidationError,
} from "../errors.ts";
import { projectSettingsOf } from "../entities/project.ts";
import type { ProjectEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import { assertNever } from "../assert-never.ts";
import type { ProjectState } from "../state/project-state.ts";

function createProject(
  d: CommandData<"CreateProject">,
  s: ProjectState,
  m: CommandMeta,
): ProjectEvent[] {
  if (s.project) throw new ConflictError(`project ${d.projectId} already exists`);
  return [
    {
      type: "ProjectCreated",
      data: {
        project: {
          id: d.projectId,
          title: d.title,
          workspaceRoot: d.workspaceRoot,
          defaultProvider: d.defaultProvider ?? null,
          ...(d.settings ? { settings: projectSettingsOf({ settings: d.settings }) } : {}),
          createdAt: m.at,
          updatedAt: m.at,
          archivedAt: null,
          deletedAt: null,
        },
        at: m.at,
      },
    },
  ];
}

function requireProject(s: ProjectState, projectId: string) {
  if (!s.project || s.project.id !== projectId) throw new NotFoundError("Project", projectId);
  return s.project;
}

function renameProject(
  d: CommandData<"RenameProject">,
  s: ProjectState,
  m: CommandMeta,
): ProjectEvent[] {
  const project = requireProject(s, d.projectId);
  if (project.archivedAt) throw new PreconditionFailedError(`project ${project.id} is archived`);
  if (project.deletedAt) throw new PreconditionFailedError(`project ${project.id} is deleted`);
  return [{ type: "ProjectRenamed", data: { projectId: project.id, title: d.title, at: m.at } }];
}

function updateProjectSettings(
  d: CommandData<"UpdateProjectSettings">,
  s: ProjectState,
  m: CommandMeta,
): ProjectEvent[] {
  const project = requireProject(s, d.projectId);
  if (project.archivedAt) throw new PreconditionFailedError(`project ${project.id} is archived`);
  const changes = Object.entries(d.settings).filter(([, value]) => value !== undefined);
  if (changes.length === 0) throw new ValidationError("no settings to change");
  const settings = { ...projectSettingsOf(project), ...Object.fromEntries(changes) };
  return [{ type: "ProjectSettingsUpdated", data: { projectId: project.id, settings, at: m.at } }];
}

function archiveProject(
  d: CommandData<"ArchiveProject">,
  s: ProjectState,
  m: CommandMeta,
): ProjectEvent[] {
  const project = requireProject(s, d.projectId);
  if (project.archivedAt)
    throw new PreconditionFailedError(`project ${project.id} is already archived`);
  return [{ type: "ProjectArchived", data: { projectId: project.id, at: m.at } }];
}

function deleteProject(
  d: CommandData<"DeleteProject">,
  s: ProjectState,
  m: CommandMeta,
): ProjectEvent[] {
  const project = requireProject(s, d.projectId);
  if (project.deletedAt) {
    throw new PreconditionFailedError(`project ${project.id} is already deleted`);
  }
  return [{ type: "ProjectDeleted", data: { projectId: project.id, at: m.at } }];
}

export function decideProject(
  command: ProjectCommand,
  state: ProjectState,
  meta: CommandMeta,
): DecideResult<ProjectEvent> {
  return guarded(() => {
    switch (command.type) {
      case "CreateProject":
        return createProject(command.data, state, meta);
      case "RenameProject":
        return renameProject(command.data, state, meta);
      case "UpdateProjectSettings":
        return updateProjectSettings(command.data, state, meta);
      case "ArchiveProject":
        return archiveProject(command.data, state, meta);
      case "DeleteProject":
        return deleteProject(command.data, state, meta);
      default:
        return assertNever(command);
    }
  });
}
