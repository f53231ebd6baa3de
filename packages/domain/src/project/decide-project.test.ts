import { describe, expect, it } from "vitest";
import { parseCommand } from "../commands.ts";
import { given } from "../testing/decider-spec.ts";
import { id } from "../testing/fixtures.ts";

const P = id("project", "p");
const create = {
  type: "CreateProject",
  data: { projectId: P, title: "Skein", workspaceRoot: "/src/skein" },
} as const;

describe("project stream", () => {
  it("CreateProject → ProjectCreated; twice is a conflict", () => {
    const { events } = given([], { kind: "project" })
      .when(create)
      .then([
        {
          type: "ProjectCreated",
          data: { project: { id: P, title: "Skein", defaultProvider: null, archivedAt: null } },
        },
      ]);
    given(events, { kind: "project" }).when(create).thenFails("conflict");
  });

  it("RenameProject and ArchiveProject; an archived project is not renamed or archived again", () => {
    const { events } = given([], { kind: "project" })
      .when(create)
      .then([{ type: "ProjectCreated" }]);
    given(events, { kind: "project" })
      .when({ type: "RenameProject", data: { projectId: P, title: "New" } })
      .then([{ type: "ProjectRenamed", data: { title: "New" } }]);
    const archived = given(events, { kind: "project" })
      .when({ type: "ArchiveProject", data: { projectId: P } })
      .then([{ type: "ProjectArchived" }]);
    const log = [...events, ...archived.events];
    given(log, { kind: "project" })
      .when({ type: "ArchiveProject", data: { projectId: P } })
      .thenFails("precondition_failed");
    given(log, { kind: "project" })
      .when({ type: "RenameProject", data: { projectId: P, title: "x" } })
      .thenFails("precondition_failed");
    given([], { kind: "project" })
      .when({ type: "RenameProject", data: { projectId: P, title: "x" } })
      .thenFails("not_found");
  });

  it("UpdateProjectSettings changes only what it names; defaults fill the rest; none is refused", () => {
    const { events } = given([], { kind: "project" })
      .when(create)
      .then([{ type: "ProjectCreated" }]);
    const updated = given(events, { kind: "project" })
      .when({
        type: "UpdateProjectSettings",
        data: { projectId: P, settings: { threadWorkspace: "local", setupScript: "make" } },
      })
      .then([
        {
          type: "ProjectSettingsUpdated",
          data: {
            settings: {
              threadWorkspace: "local",
              setupScript: "make",
              copyFiles: [".env*"],
              portRange: { from: 3100, to: 3199 },
            },
          },
        },
      ]);
    given([...events, ...updated.events], { kind: "project" })
      .when({ type: "UpdateProjectSettings", data: { projectId: P, settings: { copyFiles: [] } } })
      .then([
        {
          type: "ProjectSettingsUpdated",
          data: { settings: { threadWorkspace: "local", setupScript: "make", copyFiles: [] } },
        },
      ]);
    given(events, { kind: "project" })
      .when({ type: "UpdateProjectSettings", data: { projectId: P, settings: {} } })
      .thenFails("validation");
  });

  it("issue 25: UpdateProjectSettings sets who writes handoffs; the other settings keep their values", () => {
    const { events } = given([], { kind: "project" })
      .when({ ...create, data: { ...create.data, settings: { threadWorkspace: "local" } } })
      .then([
        { type: "ProjectCreated", data: { project: { settings: { handoffWriter: "skein" } } } },
      ]);
    const updated = given(events, { kind: "project" })
      .when({
        type: "UpdateProjectSettings",
        data: { projectId: P, settings: { handoffWriter: "provider" } },
      })
      .then([
        {
          type: "ProjectSettingsUpdated",
          data: { settings: { threadWorkspace: "local", handoffWriter: "provider" } },
        },
      ]);
    const { project } = updated.after as { project: { settings?: { handoffWriter?: string } } };
    expect(project.settings?.handoffWriter).toBe("provider");
  });

  it("issue 25: a bad handoff writer is a typed validation error naming the field", () => {
    const parsed = parseCommand({
      type: "UpdateProjectSettings",
      data: { projectId: P, settings: { handoffWriter: "claude" } },
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe("validation");
    expect(parsed.error.message).toMatch(/settings\.handoffWriter.*'skein' or 'provider'/);
  });

  it("a project command against a thread stream is a validation error", () => {
    given([]).when(create).thenFails("validation");
  });
});
