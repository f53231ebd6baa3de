"use client";
import { GitFork } from "lucide-react";
import type { Run, TurnItem } from "../../lib/types.ts";

/** Items that mark something rather than say something: nothing to cut the conversation after. */
const NOT_A_CUT = new Set<TurnItem["type"]>(["checkpoint", "fork", "handoff"]);

/**
 * E12: "fork from here" under one item of a finished run. The fork's context ends right after this
 * item: natively when it ends its turn, from a handoff of the conversation up to it otherwise.
 */
export function ItemForkButton({
  item,
  run,
  onForkItem,
  forking,
}: {
  item: TurnItem;
  run: Run | undefined;
  onForkItem: (item: TurnItem) => void;
  forking: boolean;
}) {
  if (run?.status !== "completed" || NOT_A_CUT.has(item.type)) return null;
  return (
    <div className="item-fork">
      <button
        type="button"
        className="small ghost"
        disabled={forking}
        onClick={() => onForkItem(item)}
        title="Start a new thread whose conversation ends right after this item"
      >
        <GitFork size={12} aria-hidden /> Fork from here
      </button>
    </div>
  );
}
