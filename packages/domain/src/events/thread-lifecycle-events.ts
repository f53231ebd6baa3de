import { z } from "zod";
import { AppThread, WorkspaceSetup } from "../entities/app-thread.ts";
import { InteractionMode, ModelSelection, ProviderKind, RuntimeMode } from "../entities/common.ts";
import { OnUsageLimit } from "../entities/usage-limit.ts";
import { ForkInheritance } from "../entities/fork-inheritance.ts";
import { ForkItem } from "../entities/turn-item.ts";
import { ThreadId } from "../ids.ts";
import { defineEvent } from "./define.ts";

export const ThreadSettingsPatch = z.object({
  title: z.string().min(1).max(200).optional(),
  defaultProvider: ProviderKind.optional(),
  modelSelection: ModelSelection.optional(),
  runtimeMode: RuntimeMode.optional(),
  interactionMode: InteractionMode.optional(),
  branch: z.string().min(1).nullable().optional(),
  worktreePath: z.string().min(1).nullable().optional(),
  port: z.number().int().min(1).max(65535).nullable().optional(),
  workspaceSetup: WorkspaceSetup.nullable().optional(),
  autoFeedback: z.boolean().optional(),
  onUsageLimit: OnUsageLimit.optional(),
});
export type ThreadSettingsPatch = z.infer<typeof ThreadSettingsPatch>;

export const ThreadCreated = defineEvent("ThreadCreated", { thread: AppThread });
/** Written only to the new thread's stream; the source is read, never written (T1). */
export const ThreadForked = defineEvent("ThreadForked", {
  thread: AppThread,
  inheritance: ForkInheritance,
  item: ForkItem,
});
export const ThreadSettingsUpdated = defineEvent("ThreadSettingsUpdated", {
  threadId: ThreadId,
  changes: ThreadSettingsPatch,
});
export const ThreadArchived = defineEvent("ThreadArchived", { threadId: ThreadId });
export const ThreadUnarchived = defineEvent("ThreadUnarchived", { threadId: ThreadId });
export const ThreadDeleted = defineEvent("ThreadDeleted", { threadId: ThreadId });
/** The deleted thread's worktree (null: it had none) and checkpoint refs were removed. */
export const ThreadPurged = defineEvent("ThreadPurged", {
  threadId: ThreadId,
  worktreePath: z.string().min(1).nullable(),
  refsDeleted: z.number().int().min(0),
});
/** The former parent is kept for audit; the thread's lineage no longer names it. */
export const ThreadPromoted = defineEvent("ThreadPromoted", {
  threadId: ThreadId,
  formerParentThreadId: ThreadId,
});
