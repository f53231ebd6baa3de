/** Issue 18: replaying recorded raw provider frames, and the fixtures that keep them. */
export { normalizeEvents } from "./normalize.ts";
export {
  parseSlice,
  type ReplayedSession,
  replaySlice,
  type SliceFrame,
  SliceError,
} from "./replay-slice.ts";
