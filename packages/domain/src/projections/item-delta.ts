import type { RawFrames } from "../entities/common.ts";
import { withLaterFrame } from "../thread/raw-frames.ts";

/** What `ItemDeltaAppended` says, less the node it is for. */
export type ItemDelta = { delta: string; at: string; rawEventId?: string | undefined };

/** The item fields a delta touches; both the domain's and the API's serialized items fit. */
type DeltaTarget = {
  type: string;
  updatedAt: string;
  rawFrames?: RawFrames;
};

/** Item types whose text grows by deltas (message and reasoning text, a command's output). */
export function takesDeltas(type: string): boolean {
  return type === "assistant_message" || type === "reasoning" || type === "command_execution";
}

/**
 * The item after one streamed delta: its text (or a command's output) extended, `updatedAt`
 * moved, its raw frame range extended. Items of other types keep their content and only extend
 * the frame range. Shared by the store's projection and the browser, which applies deltas to
 * the item it shows instead of re-reading the thread, so both always agree.
 */
export function withItemDelta<T extends DeltaTarget>(item: T, d: ItemDelta): T {
  const grown = appendTo(item, d);
  return withLaterFrame(grown, d.rawEventId);
}

function appendTo<T extends DeltaTarget>(item: T, d: ItemDelta): T {
  const fields = item as DeltaTarget & { text?: string; output?: string | null };
  switch (item.type) {
    case "assistant_message":
    case "reasoning":
      return { ...item, text: (fields.text ?? "") + d.delta, updatedAt: d.at };
    case "command_execution":
      return { ...item, output: (fields.output ?? "") + d.delta, updatedAt: d.at };
    default:
      return item;
  }
}
