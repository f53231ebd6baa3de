import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors.ts";
import {
  planThreadImport,
  THREAD_EXPORT_FORMAT,
  type ThreadExportDocument,
} from "./thread-export.ts";

const at = "2026-12-01T10:00:00.000Z";
const project = {
  id: "prj_a1",
  title: "Demo",
  workspaceRoot: "/work/demo",
  defaultProvider: null,
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
  deletedAt: null,
};

function document(streams: ThreadExportDocument["streams"]): ThreadExportDocument {
  return {
    format: THREAD_EXPORT_FORMAT,
    version: 1,
    exportedAt: at,
    threadId: "thr_a1" as never,
    streams,
  };
}

const projectStream = {
  streamId: "project-prj_a1",
  events: [{ type: "ProjectCreated", data: { project, at } }],
};

function refusal(doc: ThreadExportDocument): string {
  try {
    planThreadImport(doc);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("planThreadImport (pure, issue 18)", () => {
  it("refuses a document without the thread's own stream, a repeated stream, or a stream opened for another entity", () => {
    expect(refusal(document([projectStream]))).toMatch(/does not hold thread thr_a1/);
    expect(refusal(document([projectStream, projectStream]))).toMatch(/appears twice/);
    const renamed = { ...projectStream, streamId: "project-prj_b2" };
    expect(refusal(document([renamed]))).toMatch(/creates another project than prj_b2/);
    const headless = {
      streamId: "project-prj_a1",
      events: [{ type: "ProjectArchived", data: { projectId: "prj_a1", at } }],
    };
    expect(refusal(document([headless]))).toMatch(
      /begins with ProjectCreated, not ProjectArchived/,
    );
  });
});
