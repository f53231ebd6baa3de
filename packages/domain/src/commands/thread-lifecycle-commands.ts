import { z } from "zod";
import { NameText, PathText } from "../inputs/text.ts";
import {
  InteractionMode,
  ModelSelection,
  NativeRef,
  ProviderKind,
  RuntimeMode,
} from "../entities/common.ts";
import { WorkspaceSetup } from "../entities/app-thread.ts";
import { TransferCreatedBy } from "../entities/context-transfer.ts";
import { OnUsageLimit } from "../entities/usage-limit.ts";
import {
  CheckpointId,
  NodeId,
  ProjectId,
  ProviderThreadId,
  RunId,
  ThreadId,
  TurnItemId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

export const CreateThread = defineCommand("CreateThread", {
  threadId: ThreadId,
  projectId: ProjectId,
  title: NameText,
  defaultProvider: ProviderKind,
  modelSelection: ModelSelection.optional(),
  runtimeMode: RuntimeMode.optional(),
  interactionMode: InteractionMode.optional(),
  branch: PathText.nullable().optional(),
  worktreePath: PathText.nullable().optional(),
  /** A child thread that does not inherit its parent's items (e.g. a cross-provider subagent). */
  parentThreadId: ThreadId.optional(),
  /** An outside agent (MCP/ACP client) started the thread: its name, recorded on the thread. */
  agentName: NameText.optional(),
});

/**
 * Where a fork starts (T2, E12); `latest_stable` never picks a run that is still in progress.
 * `turn_item` and `node` cut inside a settled run (right after that item or node); a
 * `provider_thread` point is the end of an idle provider thread's coverage.
 */
export const ForkSourcePointSpec = z.discriminatedUnion("type", [
  z.object({ type: z.literal("latest_stable") }),
  z.object({ type: z.literal("run"), runId: RunId }),
  z.object({ type: z.literal("checkpoint"), checkpointId: CheckpointId }),
  z.object({ type: z.literal("turn_item"), turnItemId: TurnItemId }),
  z.object({ type: z.literal("node"), nodeId: NodeId }),
  z.object({ type: z.literal("provider_thread"), providerThreadId: ProviderThreadId }),
]);
export type ForkSourcePointSpec = z.infer<typeof ForkSourcePointSpec>;

/** Needs the source ThreadState in the decide context; writes only the new thread's stream. */
export const ForkThread = defineCommand("ForkThread", {
  threadId: ThreadId,
  sourceThreadId: ThreadId,
  sourcePoint: ForkSourcePointSpec,
  /** Absent: "fork of <source> at run N" (B16), numbered `sibling` when that is above 1. */
  title: NameText.optional(),
  /** Which untitled fork of the source at this point this is (the caller counts those made). */
  sibling: z.number().int().positive().max(10_000).optional(),
  createdBy: TransferCreatedBy,
  relationship: z.enum(["fork", "subagent"]),
  /** With `createdBy: "agent"` from an outside agent (MCP/ACP client): its name. */
  agentName: NameText.optional(),
});

export const UpdateThreadSettings = defineCommand("UpdateThreadSettings", {
  threadId: ThreadId,
  title: NameText.optional(),
  defaultProvider: ProviderKind.optional(),
  modelSelection: ModelSelection.optional(),
  runtimeMode: RuntimeMode.optional(),
  interactionMode: InteractionMode.optional(),
  branch: PathText.nullable().optional(),
  worktreePath: PathText.nullable().optional(),
  /** Issue 26: the `PORT` of a thread with its own worktree, picked by the edge from a range. */
  port: z.number().int().min(1).max(65535).nullable().optional(),
  /** Issue 26: progress of the worktree's setup (copied files, setup script). */
  workspaceSetup: WorkspaceSetup.nullable().optional(),
  /** B17: review comments and failing checks of the thread's PR go to the agent unasked. */
  autoFeedback: z.boolean().optional(),
  /** Issue 32: wait out a usage limit, offer a switch, or stop. */
  onUsageLimit: OnUsageLimit.optional(),
});

export const ArchiveThread = defineCommand("ArchiveThread", { threadId: ThreadId });
export const UnarchiveThread = defineCommand("UnarchiveThread", { threadId: ThreadId });

/** Issue 33: a soft delete; what the thread left on disk goes later, with `PurgeThread`. */
export const DeleteThread = defineCommand("DeleteThread", { threadId: ThreadId });
/**
 * Records that a deleted thread's worktree and checkpoint refs are gone (the orchestrator removes
 * them first, under an effect claim): what was removed, for the audit.
 */
export const PurgeThread = defineCommand("PurgeThread", {
  threadId: ThreadId,
  worktreePath: z.string().min(1).nullable(),
  refsDeleted: z.number().int().min(0),
});

/**
 * T9/E9: a sub-agent's child thread becomes a normal app thread: a top-level row of its own, no
 * longer following its parent's native sub-agent nor stopped with its parent.
 */
export const PromoteThread = defineCommand("PromoteThread", { threadId: ThreadId });

/** One native turn of an adopted thread, as the provider's own history holds it (B6). */
export const AdoptedTurn = z.object({
  /** The provider's turn id (Claude: the prompt's uuid); null where it has none (E10). */
  nativeTurnRef: NativeRef.nullable(),
  /** What the person typed; empty for a turn that carried none (e.g. a compaction). */
  userText: z.string().max(1_000_000),
  assistantText: z.string().max(1_000_000).nullable(),
});
export type AdoptedTurn = z.infer<typeof AdoptedTurn>;

/**
 * B6/E9: a native thread of the person's own (made outside Skein) becomes an app thread bound to
 * it: its turns are recorded as completed, imported runs on that provider thread, so the next
 * message resumes it natively. The caller reads the turns from the provider.
 */
export const AdoptThread = defineCommand("AdoptThread", {
  threadId: ThreadId,
  projectId: ProjectId,
  title: NameText,
  provider: ProviderKind,
  providerThreadId: ProviderThreadId,
  nativeThreadRef: NativeRef,
  turns: z.array(AdoptedTurn).max(10_000),
});
