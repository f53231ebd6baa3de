import { z } from "zod";
import { CheckpointId, RunId, ThreadId, TurnItemId } from "../ids.ts";
import { NativeRef } from "./common.ts";

/** E12: the exact state a transfer moves; `basePoint` of a merge-back uses the same shape. */
export const ContextSourcePoint = z.object({
  threadId: ThreadId,
  runId: RunId.nullable(),
  checkpointId: CheckpointId.nullable(),
  turnItemId: TurnItemId.nullable(),
  providerThreadRef: NativeRef.nullable(),
  providerTurnRef: NativeRef.nullable(),
});
export type ContextSourcePoint = z.infer<typeof ContextSourcePoint>;
