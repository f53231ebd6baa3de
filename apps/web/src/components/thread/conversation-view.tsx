"use client";
import Link from "next/link";
import { useLayoutEffect, useMemo, useRef } from "react";
import { useShells } from "../../lib/shells-store.tsx";
import type { PendingRequest, Run, ThreadDetail, TurnItem } from "../../lib/types.ts";
import { useFork } from "../../lib/use-fork.ts";
import { retryableRunId } from "../../lib/retryable-run.ts";
import { useRetry } from "../../lib/use-retry.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { useDebug } from "../../lib/debug-mode.tsx";
import { Composer } from "../composer/composer.tsx";
import { QueuedMessages } from "../queue/queued-messages.tsx";
import { TurnItemView } from "../items/turn-item-view.tsx";
import { CurrentPlan } from "./current-plan.tsx";
import { UsageLimitNotice, usageLimitNote } from "./usage-limit-notice.tsx";
import { stopLabel } from "./timeline-scrubber.tsx";
import { ItemStream } from "./item-stream.tsx";
import { VIRTUALIZE_FROM, VirtualItemStream } from "./virtual-item-stream.tsx";
import { ActionError } from "../common/action-error.tsx";
import { useCommand } from "../../lib/commands.tsx";
import { useStableCallback } from "../../lib/use-stable-callback.ts";

type Sections = { inherited: TurnItem[]; marker: TurnItem | null; own: TurnItem[] };

/**
 * P7 on screen: a fork shows the source's items it inherited (by reference), the "forked from"
 * marker, then its own items. Any other thread shows its visible items as they are.
 */
function splitSections(detail: ThreadDetail): Sections {
  // Null when it equals `turnItems` (a thread that is not a fork; nothing rolled back).
  const items = detail.visibleTurnItems ?? detail.turnItems;
  const markerId = detail.thread.inheritance?.forkItemId;
  const at = markerId ? items.findIndex((item) => item.id === markerId) : -1;
  if (at < 0) return { inherited: [], marker: null, own: items };
  return { inherited: items.slice(0, at), marker: items[at]!, own: items.slice(at + 1) };
}

const STICK_PX = 96;

export function ConversationView() {
  const { detail, refresh, threadId, isolatedForks, older, hasOlder, loadOlder, travel } =
    useThread();
  const { debug } = useDebug();
  const { shells } = useShells();
  const forker = useFork(threadId);
  const retrier = useRetry(threadId, refresh);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastScrollTop = useRef(0);

  // Keyed on the parts each derived value reads: a streamed delta replaces only the item lists,
  // so runs, requests and the callbacks below keep their identity and memoized rows skip.
  const liveRuns = detail?.runs;
  const runs = useMemo(
    () =>
      new Map<string, Run>(
        [...older.flatMap((page) => page.runs), ...(liveRuns ?? [])].map((run) => [run.id, run]),
      ),
    [liveRuns, older],
  );
  // B7: older windows, loaded as the reader scrolls up; the live window stays below them.
  const olderItems = useMemo(
    () => older.flatMap((page) => page.visibleTurnItems ?? page.turnItems),
    [older],
  );
  // Prepending older runs must not move what the reader is looking at.
  const heightBefore = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when older runs arrive
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && heightBefore.current !== null) {
      element.scrollTop += element.scrollHeight - heightBefore.current;
      heightBefore.current = null;
    }
  }, [older]);
  const pendingRequests = detail?.pendingRequests;
  const pending = useMemo(
    () => new Map<string, PendingRequest>((pendingRequests ?? []).map((r) => [r.id, r])),
    [pendingRequests],
  );
  const sections = useMemo(() => (detail ? splitSections(detail) : null), [detail]);
  const shell = detail?.thread;
  const limitNote = useMemo(() => (shell ? usageLimitNote(shell) : null), [shell]);

  // Follow a growing reply while the reader is at the bottom; leave them alone once they scroll up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on every new projection
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [detail]);

  const onFork = useStableCallback((run: Run) =>
    forker.fork({ type: "run", runId: run.id }, { isolatedWorkspace: isolatedForks }),
  );
  const onForkItem = useStableCallback((item: TurnItem) =>
    forker.fork({ type: "turn_item", turnItemId: item.id }, { isolatedWorkspace: isolatedForks }),
  );
  const onRetry = useStableCallback(retrier.retry);
  const latestForkable = useMemo(
    () =>
      (liveRuns ?? []).findLast((run) => run.threadId === threadId && run.status === "completed") ??
      null,
    [liveRuns, threadId],
  );
  useCommand(
    {
      id: "fork",
      label: "Fork from the latest run",
      group: "Thread",
      shortcut: "fork",
      run: () => latestForkable && !forker.pending && onFork(latestForkable),
    },
    latestForkable !== null,
  );

  // Older windows join the live one in a single virtualized stream, so the DOM holds what is in
  // view however far back the reader scrolls. A thread with older runs is virtualized from the
  // start: switching renderers mid-scroll would lose the reader's place. (A fork whose live
  // window shows its marker keeps the older windows above the inherited section.)
  const joined = sections !== null && sections.marker === null && sections.inherited.length === 0;
  const stream = useMemo(
    () =>
      joined && olderItems.length > 0
        ? [...olderItems, ...(sections?.own ?? [])]
        : (sections?.own ?? []),
    [joined, olderItems, sections],
  );

  if (detail === null || sections === null) return null;
  const virtualized =
    stream.length >= VIRTUALIZE_FROM || (joined && (hasOlder || older.length > 0));
  const sourceId = detail.thread.inheritance?.sourceThreadId ?? null;
  const rolledBack = detail.runs.filter((run) => run.status === "rolled_back").length;

  return (
    <div className="conversation">
      <div
        ref={scroller}
        className="conversation-scroll"
        // The thread's own runs read so far (older windows and the live one), for tests and tools.
        data-runs-from={older[0]?.window.fromRunOrdinal ?? detail.window.fromRunOrdinal}
        data-runs-to={detail.window.toRunOrdinal}
        onScroll={(event) => {
          const el = event.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
          // Only a move up pages back: the page opens at scrollTop 0 before the stream takes
          // it to the newest run, and a scroll event from then must not load older windows
          // (and leave the reader above the latest reply).
          const movedUp = el.scrollTop < lastScrollTop.current;
          lastScrollTop.current = el.scrollTop;
          if (movedUp && el.scrollTop < STICK_PX && hasOlder) {
            // A virtualized stream keeps its own place (virtual-item-stream.tsx).
            heightBefore.current = virtualized ? null : el.scrollHeight;
            loadOlder();
          }
        }}
      >
        {hasOlder && (
          <p className="muted older-runs">
            <button
              type="button"
              className="link-button"
              onClick={() => {
                heightBefore.current = virtualized
                  ? null
                  : (scroller.current?.scrollHeight ?? null);
                loadOlder();
              }}
            >
              Earlier runs
            </button>
          </p>
        )}
        {olderItems.length > 0 && !joined && (
          <section className="older-items" aria-label="Earlier runs">
            <ItemStream
              items={olderItems}
              runs={runs}
              pendingRequests={pending}
              inherited={false}
            />
          </section>
        )}
        {sections.inherited.length > 0 && (
          <section className="inherited" aria-label="Inherited from the source thread">
            <h2 className="section-label">
              Inherited from{" "}
              {sourceId ? (
                <Link href={`/threads/${sourceId}`}>{shells.get(sourceId)?.title ?? sourceId}</Link>
              ) : (
                "the source thread"
              )}
            </h2>
            <ItemStream
              items={sections.inherited}
              runs={runs}
              pendingRequests={pending}
              inherited
            />
          </section>
        )}
        {sections.marker && <TurnItemView item={sections.marker} pendingRequests={pending} />}
        <section className="own-items" aria-label="Conversation">
          {sections.own.length === 0 && sections.marker === null && (
            <p className="muted empty">No messages yet. Say what you want done.</p>
          )}
          {virtualized ? (
            <VirtualItemStream
              items={stream}
              runs={runs}
              pendingRequests={pending}
              scroller={scroller}
              stick={stick}
              onFork={onFork}
              onForkItem={onForkItem}
              forking={forker.pending}
              retryRunId={retryableRunId(detail)}
              onRetry={onRetry}
              retrying={retrier.pending}
              limitNote={limitNote}
            />
          ) : (
            <ItemStream
              items={stream}
              runs={runs}
              pendingRequests={pending}
              inherited={false}
              onFork={onFork}
              onForkItem={onForkItem}
              forking={forker.pending}
              retryRunId={retryableRunId(detail)}
              onRetry={onRetry}
              retrying={retrier.pending}
              limitNote={limitNote}
            />
          )}
        </section>
        {rolledBack > 0 && (
          <p className="muted rolled-back-note">
            {rolledBack} rolled-back run{rolledBack === 1 ? " is" : "s are"} hidden here; the Graph
            tab keeps them.
          </p>
        )}
        <ActionError error={forker.failure} prefix="Fork failed." />
        <ActionError error={retrier.failure} prefix="Retry failed." />
      </div>
      <CurrentPlan plans={detail.plans} />
      {travel.atSequence === null ? (
        <>
          <UsageLimitNotice detail={detail} onChanged={refresh} />
          <QueuedMessages detail={detail} onChanged={refresh} />
          <Composer key={detail.thread.id} detail={detail} onSent={refresh} />
        </>
      ) : (
        <p className="past-banner" role="status">
          You are looking at this thread as it was{" "}
          {stopLabel(travel, debug).replace(/^As of /, "at ")}.{" "}
          <button type="button" className="link-button" onClick={() => travel.moveTo(null)}>
            Back to live
          </button>{" "}
          to send a message.
        </p>
      )}
    </div>
  );
}
