import type { ProjectEvent, SessionEvent } from "../events.ts";
import { assertNever } from "../assert-never.ts";
import type { ProjectState, SessionState } from "./project-state.ts";

export function evolveProject(state: ProjectState, event: ProjectEvent): ProjectState {
  state.changed.clear();
  const project = state.project;
  switch (event.type) {
    case "ProjectCreated":
      state.project = event.data.project;
      break;
    case "ProjectRenamed":
      if (project)
        state.project = { ...project, title: event.data.title, updatedAt: event.data.at };
      break;
    case "ProjectSettingsUpdated":
      if (project) {
        state.project = { ...project, settings: event.data.settings, updatedAt: event.data.at };
      }
      break;
    case "ProjectArchived":
      if (project) {
        state.project = { ...project, archivedAt: event.data.at, updatedAt: event.data.at };
      }
      break;
    case "ProjectDeleted":
      if (project) {
        state.project = { ...project, deletedAt: event.data.at, updatedAt: event.data.at };
      }
      break;
    default:
      assertNever(event);
  }
  if (state.project) state.changed.set(state.project.id, "projects");
  return state;
}

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  state.changed.clear();
  const session = state.session;
  switch (event.type) {
    case "ProviderSessionOpened":
      state.session = event.data.session;
      break;
    case "ProviderSessionStatusChanged":
      if (session) {
        state.session = {
          ...session,
          status: event.data.status,
          lastError: event.data.lastError,
          updatedAt: event.data.at,
        };
      }
      break;
    default:
      assertNever(event);
  }
  if (state.session) state.changed.set(state.session.id, "provider_sessions");
  return state;
}
