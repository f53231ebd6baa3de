import { z } from "zod";
import { Checkpoint } from "../entities/checkpoint.ts";
import { CheckpointScope } from "../entities/checkpoint-scope.ts";
import { CheckpointItem } from "../entities/turn-item.ts";
import { CheckpointId, RunId } from "../ids.ts";
import { defineEvent } from "./define.ts";

export const CheckpointScopeRecorded = defineEvent("CheckpointScopeRecorded", {
  scope: CheckpointScope,
});
/** `item` is set for a ready root-run checkpoint: the conversation shows it. */
export const CheckpointRecorded = defineEvent("CheckpointRecorded", {
  checkpoint: Checkpoint,
  item: CheckpointItem.nullable(),
});
export const CheckpointMarkedMissing = defineEvent("CheckpointMarkedMissing", {
  checkpointId: CheckpointId,
});
/** Runs after the checkpoint's run become rolled_back; their checkpoints go stale. */
export const ThreadRolledBack = defineEvent("ThreadRolledBack", {
  checkpointId: CheckpointId,
  runOrdinal: z.number().int().positive(),
  rolledBackRunIds: z.array(RunId),
  item: CheckpointItem,
});
