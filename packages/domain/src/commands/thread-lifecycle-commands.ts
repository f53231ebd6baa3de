import { z } from "zod";
import { InteractionMode, ModelSelection, ProviderKind, RuntimeMode } from "../entities/common.ts";
import { TransferCreatedBy } from "../entities/context-transfer.ts";
import { CheckpointId, ProjectId, RunId, ThreadId } from "../ids.ts";
import { defineCommand } from "./define.ts";

export const CreateThread = defineCommand("CreateThread", {
  threadId: ThreadId,
  projectId: ProjectId,
  title: z.string().min(1).max(200),
  defaultProvider: ProviderKind,
  modelSelection: ModelSelection.optional(),
  runtimeMode: RuntimeMode.optional(),
  interactionMode: InteractionMode.optional(),
  branch: z.string().min(1).nullable().optional(),
  worktreePath: z.string().min(1).nullable().optional(),
  /** A child thread that does not inherit its parent's items (e.g. a cross-provider subagent). */
  parentThreadId: ThreadId.optional(),
});

/** Where a fork starts (T2); `latest_stable` never picks a run that is still in progress. */
export const ForkSourcePointSpec = z.discriminatedUnion("type", [
  z.object({ type: z.literal("latest_stable") }),
  z.object({ type: z.literal("run"), runId: RunId }),
  z.object({ type: z.literal("checkpoint"), checkpointId: CheckpointId }),
]);
export type ForkSourcePointSpec = z.infer<typeof ForkSourcePointSpec>;

/** Needs the source ThreadState in the decide context; writes only the new thread's stream. */
export const ForkThread = defineCommand("ForkThread", {
  threadId: ThreadId,
  sourceThreadId: ThreadId,
  sourcePoint: ForkSourcePointSpec,
  title: z.string().min(1).max(200).optional(),
  createdBy: TransferCreatedBy,
  relationship: z.enum(["fork", "subagent"]),
});

export const UpdateThreadSettings = defineCommand("UpdateThreadSettings", {
  threadId: ThreadId,
  title: z.string().min(1).max(200).optional(),
  defaultProvider: ProviderKind.optional(),
  modelSelection: ModelSelection.optional(),
  runtimeMode: RuntimeMode.optional(),
  interactionMode: InteractionMode.optional(),
  branch: z.string().min(1).nullable().optional(),
  worktreePath: z.string().min(1).nullable().optional(),
});

export const ArchiveThread = defineCommand("ArchiveThread", { threadId: ThreadId });
