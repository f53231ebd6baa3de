/** Issue 18: recorded raw frames through the Codex mapping, without a process. */
export { type ReplayFrame, replayCodexFrames } from "./replay/replay-frames.ts";
