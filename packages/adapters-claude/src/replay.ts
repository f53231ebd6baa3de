/** Issue 18: recorded raw frames through the Claude mapping, without a process. */
export { type ReplayFrame, replayClaudeFrames } from "./replay/replay-frames.ts";
