import { z } from "zod";
import {
  MarkCheckpointMissing,
  RecordCheckpoint,
  RecordCheckpointScope,
  RollbackThread,
} from "./commands/checkpoint-commands.ts";
import {
  AppendItemDelta,
  CompleteItem,
  OpenRuntimeRequest,
  ResolveRuntimeRequest,
  StartItem,
  UpdatePlan,
  WithdrawRuntimeRequest,
} from "./commands/item-commands.ts";
import {
  ArchiveProject,
  ChangeProviderSessionStatus,
  CreateProject,
  DeleteProject,
  OpenProviderSession,
  RenameProject,
  UpdateProjectSettings,
} from "./commands/project-commands.ts";
import {
  CompleteProviderTurn,
  RecordProviderThread,
  RecordProviderTurnFrame,
  StartProviderTurn,
  UpdateProviderThread,
} from "./commands/provider-commands.ts";
import {
  CancelQueuedRun,
  RetryRun,
  FailRun,
  InterruptRun,
  NoteRunProgress,
  QueueRun,
  RecoverInterruptedRun,
  RestartAttempt,
  StartRun,
  SteerRun,
} from "./commands/run-commands.ts";
import {
  AdoptThread,
  ArchiveThread,
  CreateThread,
  DeleteThread,
  ForkThread,
  PromoteThread,
  PurgeThread,
  UnarchiveThread,
  UpdateThreadSettings,
} from "./commands/thread-lifecycle-commands.ts";
import {
  BindHandoff,
  ConsumeContextTransfer,
  CreateContextTransfer,
  EditHandoff,
  FailContextTransfer,
  FallbackToPortable,
  PreviewHandoff,
  RecordHandoff,
  RegenerateHandoff,
  ResolveContextTransfer,
  SupersedeContextTransfer,
  SupersedeHandoff,
} from "./commands/transfer-commands.ts";
import {
  RecordCodeBroughtBack,
  RecordGitCommit,
  RecordGitPush,
  RecordPullRequest,
  RecordPullRequestFacts,
  RecordPullRequestFeedback,
  RecordPullRequestMerged,
} from "./commands/git-commands.ts";
import { EditQueuedMessage, ReorderQueue } from "./commands/queue-commands.ts";
import { ResumeAfterUsageLimit } from "./commands/usage-limit-commands.ts";
import { parseWith, type Result, type ValidationError } from "./errors.ts";

/** Commands addressed to one `thread-<ThreadId>` stream (`data.threadId`). */
export const ThreadCommand = z.discriminatedUnion("type", [
  CreateThread,
  AdoptThread,
  ForkThread,
  UpdateThreadSettings,
  ArchiveThread,
  UnarchiveThread,
  DeleteThread,
  PurgeThread,
  PromoteThread,
  QueueRun,
  StartRun,
  CancelQueuedRun,
  EditQueuedMessage,
  ReorderQueue,
  RetryRun,
  InterruptRun,
  NoteRunProgress,
  FailRun,
  SteerRun,
  RestartAttempt,
  RecoverInterruptedRun,
  RecordProviderThread,
  UpdateProviderThread,
  StartProviderTurn,
  RecordProviderTurnFrame,
  CompleteProviderTurn,
  StartItem,
  AppendItemDelta,
  CompleteItem,
  UpdatePlan,
  OpenRuntimeRequest,
  ResolveRuntimeRequest,
  WithdrawRuntimeRequest,
  CreateContextTransfer,
  ResolveContextTransfer,
  FallbackToPortable,
  FailContextTransfer,
  ConsumeContextTransfer,
  SupersedeContextTransfer,
  RecordHandoff,
  RegenerateHandoff,
  EditHandoff,
  PreviewHandoff,
  BindHandoff,
  SupersedeHandoff,
  RecordCheckpointScope,
  RecordCheckpoint,
  MarkCheckpointMissing,
  RollbackThread,
  RecordGitCommit,
  RecordGitPush,
  RecordPullRequest,
  RecordPullRequestFacts,
  RecordPullRequestFeedback,
  RecordPullRequestMerged,
  RecordCodeBroughtBack,
  ResumeAfterUsageLimit,
]);
export type ThreadCommand = z.infer<typeof ThreadCommand>;

export const ProjectCommand = z.discriminatedUnion("type", [
  CreateProject,
  RenameProject,
  UpdateProjectSettings,
  ArchiveProject,
  DeleteProject,
]);
export type ProjectCommand = z.infer<typeof ProjectCommand>;

export const SessionCommand = z.discriminatedUnion("type", [
  OpenProviderSession,
  ChangeProviderSessionStatus,
]);
export type SessionCommand = z.infer<typeof SessionCommand>;

export const Command = z.discriminatedUnion("type", [
  ...ThreadCommand.options,
  ...ProjectCommand.options,
  ...SessionCommand.options,
]);
export type Command = z.infer<typeof Command>;
export type CommandType = Command["type"];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;
export type CommandData<T extends CommandType> = CommandOf<T>["data"];

/** Validates untrusted input (API edge) into a Command with a path-qualified error. */
export function parseCommand(input: unknown): Result<Command, ValidationError> {
  return parseWith(Command, input);
}

const THREAD_COMMAND_TYPES = new Set<string>(ThreadCommand.options.map((o) => o.shape.type.value));
const PROJECT_COMMAND_TYPES = new Set<string>(
  ProjectCommand.options.map((o) => o.shape.type.value),
);

export function isThreadCommand(command: Command): command is ThreadCommand {
  return THREAD_COMMAND_TYPES.has(command.type);
}
export function isProjectCommand(command: Command): command is ProjectCommand {
  return PROJECT_COMMAND_TYPES.has(command.type);
}
export function isSessionCommand(command: Command): command is SessionCommand {
  return !isThreadCommand(command) && !isProjectCommand(command);
}

export const threadStreamId = (threadId: string): string => `thread-${threadId}`;
export const projectStreamId = (projectId: string): string => `project-${projectId}`;
export const sessionStreamId = (providerSessionId: string): string =>
  `session-${providerSessionId}`;

/** The stream a command is decided against and appended to (docs/design.md). */
export function commandStreamId(command: Command): string {
  if (isThreadCommand(command)) return threadStreamId(command.data.threadId);
  if (isProjectCommand(command)) return projectStreamId(command.data.projectId);
  return sessionStreamId((command as SessionCommand).data.providerSessionId);
}
