import type { Project } from "../entities/project.ts";
import type { ProviderSession } from "../entities/provider-session.ts";
import type { ProjectionTable } from "../projections/projection-write.ts";

export type ProjectState = {
  kind: "project";
  project: Project | null;
  /** Rows touched by the last evolved event (id → table). */
  changed: Map<string, ProjectionTable>;
};

export function initialProjectState(): ProjectState {
  return { kind: "project", project: null, changed: new Map() };
}

export type SessionState = {
  kind: "session";
  session: ProviderSession | null;
  changed: Map<string, ProjectionTable>;
};

export function initialSessionState(): SessionState {
  return { kind: "session", session: null, changed: new Map() };
}
