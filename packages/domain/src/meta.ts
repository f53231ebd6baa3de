import type { CommandId, IdSource, ThreadId } from "./ids.ts";
import type { ThreadState } from "./state/thread-state.ts";

/** Ids and time enter `decide` only through here, so replays are deterministic. */
export type CommandMeta = {
  commandId: CommandId;
  /** ISO timestamp stamped on every event the command emits. */
  at: string;
  ids: IdSource;
};

/** Read-only states of other aggregates a command names (never written by that command). */
export type DecideContext = {
  /** ForkThread's source, QueueRun's `bringBackFrom` fork (RecordCodeBroughtBack's), CreateThread's parent. */
  readThread?: (threadId: ThreadId) => ThreadState | undefined;
};
