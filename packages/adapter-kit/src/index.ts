/** What both provider adapters (and the scripted provider) need, written once. */
export { AsyncQueue } from "./async-queue.ts";
export { DeltaCoalescer } from "./delta-coalescer.ts";
export { withParentDeathSignal } from "./parent-death.ts";
export { bindRawLog, type SessionFrame, type SessionRawLog } from "./raw-log.ts";
export {
  failureOfWords,
  kindOfStatus,
  kindOfWords,
  retryAfterOfWords,
} from "./failure-reading.ts";
