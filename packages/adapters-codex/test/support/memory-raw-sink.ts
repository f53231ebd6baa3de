import type { RawEventSink, RawFrame } from "../../src/index.ts";

export type MemoryRawSink = RawEventSink & { frames: Array<RawFrame & { rawEventId: string }> };

/** Stand-in for the rotating file sink: keeps frames in memory so tests can inspect them. */
export function createMemoryRawSink(): MemoryRawSink {
  const frames: Array<RawFrame & { rawEventId: string }> = [];
  return {
    frames,
    record(frame) {
      const rawEventId = `raw_${frames.length + 1}`;
      frames.push({ ...frame, rawEventId });
      return rawEventId;
    },
  };
}
