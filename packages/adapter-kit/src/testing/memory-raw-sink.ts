import type { RawEventSink, RawFrame } from "@skein/domain/provider";

export type MemoryRawEventSink = RawEventSink & {
  readonly frames: Array<RawFrame & { rawEventId: string }>;
};

/** Stands in for the rotating file sink in tests: keeps frames in memory to inspect them. */
export function createMemoryRawEventSink(): MemoryRawEventSink {
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
