"use client";
import { useForkComparison } from "../../lib/use-fork-comparison.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { FanOutForm } from "./fan-out-form.tsx";
import { ForkComparisonView } from "./fork-comparison.tsx";

/** B9 on screen: fan a task out to isolated forks, compare them, bring the best one back. */
export function ParallelView() {
  const { threadId } = useThread();
  const comparison = useForkComparison(threadId);
  return (
    <div className="page parallel-view">
      <FanOutForm threadId={threadId} onFannedOut={comparison.refresh} />
      <ForkComparisonView threadId={threadId} state={comparison} />
    </div>
  );
}
