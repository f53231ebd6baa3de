export {
  decide,
  HELD_RESUME_ATTEMPTS,
  MAX_START_REJECTIONS,
  MAX_START_ROUNDS,
  type RunStartMeta,
} from "./decide.ts";
export { evolve, initialRunStartState } from "./evolve.ts";
export { type CodeStateRequest, codeStateRequests } from "./code-state.ts";
export {
  buildPlannedHandoff,
  manualPreviewOf,
  planPreview,
  previewMismatch,
  previewOf,
} from "./handoff-preview.ts";
export { gatherTransferInputs, startContextHistory, type TransferInputs } from "./start-inputs.ts";
export type * from "./types.ts";
