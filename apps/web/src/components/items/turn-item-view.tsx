import { useDebug } from "../../lib/debug-mode.tsx";
import { words } from "../../lib/format.ts";
import type { PendingRequest, TurnItem } from "../../lib/types.ts";
import { ApprovalView } from "./approval-item.tsx";
import { CheckpointView, CompactionView, ForkView, GitView, HandoffView } from "./marker-items.tsx";
import { AssistantMessageView, ReasoningView, UserMessageView } from "./message-items.tsx";
import { PlanView } from "./plan-item.tsx";
import { RawFrames } from "./raw-frames.tsx";
import {
  CommandExecutionView,
  DynamicToolView,
  FileChangeView,
  FileSearchView,
  WebSearchView,
} from "./tool-items.tsx";

const QUIET_STATUSES = new Set(["completed", "pending", "running"]);

/** One turn item, by variant; the switch is exhaustive so a new variant fails to compile. */
export function TurnItemView({
  item,
  pendingRequests,
}: {
  item: TurnItem;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
}) {
  const { debug } = useDebug();
  if (!debug && isPlumbing(item)) return null;
  return (
    <article
      className={`item item-${item.type}`}
      data-item-id={item.id}
      data-item-type={item.type}
      data-status={item.status}
    >
      {body(item, pendingRequests)}
      {!QUIET_STATUSES.has(item.status) && (
        <span className={`badge badge-${item.status}`}>{words(item.status)}</span>
      )}
      <RawFrames item={item} />
    </article>
  );
}

/** B16: a checkpoint captured after a run that changed no file says nothing to a reader. */
export function isPlumbing(item: TurnItem): boolean {
  return item.type === "checkpoint" && item.action !== "restored" && item.files.length === 0;
}

function body(item: TurnItem, pending: ReadonlyMap<string, PendingRequest>) {
  switch (item.type) {
    case "user_message":
      return <UserMessageView item={item} />;
    case "assistant_message":
      return <AssistantMessageView item={item} />;
    case "reasoning":
      return <ReasoningView item={item} />;
    case "plan":
      return <PlanView item={item} />;
    case "file_change":
      return <FileChangeView item={item} />;
    case "command_execution":
      return <CommandExecutionView item={item} />;
    case "file_search":
      return <FileSearchView item={item} />;
    case "web_search":
      return <WebSearchView item={item} />;
    case "approval_request":
      return <ApprovalView item={item} pending={pending.get(item.requestId)} />;
    case "checkpoint":
      return <CheckpointView item={item} />;
    case "compaction":
      return <CompactionView item={item} />;
    case "handoff":
      return <HandoffView item={item} />;
    case "fork":
      return <ForkView item={item} />;
    case "dynamic_tool":
      return <DynamicToolView item={item} />;
    case "git":
      return <GitView item={item} />;
    default: {
      const unknown: never = item;
      return <pre>{JSON.stringify(unknown)}</pre>;
    }
  }
}
