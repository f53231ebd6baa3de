import { z } from "zod";
import { ProjectId, ProviderThreadId, ThreadId } from "../ids.ts";
import {
  InteractionMode,
  IsoTimestamp,
  ModelSelection,
  ProviderKind,
  RuntimeMode,
} from "./common.ts";
import { TransferCreatedBy } from "./context-transfer.ts";
import { ThreadPullRequest } from "./pull-request.ts";
import { OnUsageLimit, ThreadUsageLimit } from "./usage-limit.ts";

/** E2: light, browsing-only lineage; operational detail lives in ContextTransfer rows (T10). */
export const AppThreadLineage = z.object({
  parentThreadId: ThreadId.nullable(),
  relationshipToParent: z.enum(["fork", "subagent"]).nullable(),
  rootThreadId: ThreadId,
});
export type AppThreadLineage = z.infer<typeof AppThreadLineage>;

/**
 * Issue 26: the project's setup script in the thread's new worktree, as far as it got. `output`
 * is the tail of what it printed (stdout and stderr interleaved).
 */
export const WorkspaceSetup = z.object({
  status: z.enum(["running", "succeeded", "failed"]),
  /** Files copied in from the project's folder (relative paths), before the script ran. */
  copied: z.array(z.string()).max(1_000),
  script: z.string().nullable(),
  output: z.string().max(20_000),
  exitCode: z.number().int().nullable(),
  /** Why it failed, in words (null unless failed). */
  error: z.string().max(2_000).nullable(),
});
export type WorkspaceSetup = z.infer<typeof WorkspaceSetup>;

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
  /**
   * Who started the thread, when not the person (T9: user forks and agent-made threads differ
   * only in this): `agent` for an outside agent (an MCP or ACP client, named by `agentName`) or a
   * provider's own sub-agent spawn. Absent: the person.
   */
  createdBy: TransferCreatedBy.optional(),
  /** The outside agent's own name (its MCP/ACP `clientInfo.name`), with `createdBy: "agent"`. */
  agentName: z.string().min(1).max(200).nullable().optional(),
  /** Issue 26: the `PORT` the thread's runtimes get (null or absent: none). */
  port: z.number().int().min(1).max(65535).nullable().optional(),
  /** Issue 26: the setup of the thread's own worktree (absent: none was set up). */
  workspaceSetup: WorkspaceSetup.nullable().optional(),
  /** B17: the pull request opened from the thread (absent or null: none). */
  pullRequest: ThreadPullRequest.nullable().optional(),
  /** B17: review comments and failing checks go to the agent without a click. */
  autoFeedback: z.boolean().optional(),
  /** Issue 32: what a usage limit leads to (absent: `wait`, see usage-limit.ts). */
  onUsageLimit: OnUsageLimit.optional(),
  /** Issue 32: the latest usage limit a run of the thread failed at (absent or null: none). */
  usageLimit: ThreadUsageLimit.nullable().optional(),
});
export type AppThread = z.infer<typeof AppThread>;
