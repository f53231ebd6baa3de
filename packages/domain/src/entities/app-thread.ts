import { z } from "zod";
import { ProjectId, ProviderThreadId, ThreadId } from "../ids.ts";
import {
  InteractionMode,
  IsoTimestamp,
  ModelSelection,
  ProviderKind,
  RuntimeMode,
} from "./common.ts";

/** E2: light, browsing-only lineage; operational detail lives in ContextTransfer rows (T10). */
export const AppThreadLineage = z.object({
  parentThreadId: ThreadId.nullable(),
  relationshipToParent: z.enum(["fork", "subagent"]).nullable(),
  rootThreadId: ThreadId,
});
export type AppThreadLineage = z.infer<typeof AppThreadLineage>;

/** E1: the canonical conversation; not 1:1 with any provider-native thread. */
export const AppThread = z.object({
  id: ThreadId,
  projectId: ProjectId,
  title: z.string().min(1).max(200),
  /** Only the default for later runs; each run keeps its own provider binding. */
  defaultProvider: ProviderKind,
  modelSelection: ModelSelection,
  runtimeMode: RuntimeMode,
  interactionMode: InteractionMode,
  branch: z.string().min(1).nullable(),
  worktreePath: z.string().min(1).nullable(),
  activeProviderThreadId: ProviderThreadId.nullable(),
  lineage: AppThreadLineage.nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  archivedAt: IsoTimestamp.nullable(),
  deletedAt: IsoTimestamp.nullable(),
});
export type AppThread = z.infer<typeof AppThread>;
