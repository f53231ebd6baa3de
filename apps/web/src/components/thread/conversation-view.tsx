"use client";
import Link from "next/link";
import { useLayoutEffect, useMemo, useRef } from "react";
import { useShells } from "../../lib/shells-store.tsx";
import type { PendingRequest, Run, ThreadDetail, TurnItem } from "../../lib/types.ts";
import { useFork } from "../../lib/use-fork.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { Composer } from "../composer/composer.tsx";
import { TurnItemView } from "../items/turn-item-view.tsx";
import { ItemStream } from "./item-stream.tsx";

type Sections = { inherited: TurnItem[]; marker: TurnItem | null; own: TurnItem[] };

/**
 * P7 on screen: a fork shows the source's items it inherited (by reference), the "forked from"
 * marker, then its own items. Any other thread shows its visible items as they are.
 */
function splitSections(detail: ThreadDetail): Sections {
  const items = detail.visibleTurnItems;
  const markerId = detail.thread.inheritance?.forkItemId;
  const at = markerId ? items.findIndex((item) => item.id === markerId) : -1;
  if (at < 0) return { inherited: [], marker: null, own: items };
  return { inherited: items.slice(0, at), marker: items[at]!, own: items.slice(at + 1) };
}

const STICK_PX = 96;

export function ConversationView() {
  const { detail, refresh, threadId, isolatedForks } = useThread();
  const { shells } = useShells();
  const forker = useFork(threadId, detail?.thread.title ?? null);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const runs = useMemo(
    () => new Map<string, Run>((detail?.runs ?? []).map((run) => [run.id, run])),
    [detail],
  );
  const pending = useMemo(
    () => new Map<string, PendingRequest>((detail?.pendingRequests ?? []).map((r) => [r.id, r])),
    [detail],
  );
  const sections = useMemo(() => (detail ? splitSections(detail) : null), [detail]);

  // Follow a growing reply while the reader is at the bottom; leave them alone once they scroll up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on every new projection
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [detail]);

  if (detail === null || sections === null) return null;
  const sourceId = detail.thread.inheritance?.sourceThreadId ?? null;
  const rolledBack = detail.runs.filter((run) => run.status === "rolled_back").length;
  const onFork = (run: Run) =>
    forker.fork({ type: "run", runId: run.id }, { isolatedWorkspace: isolatedForks });

  return (
    <div className="conversation">
      <div
        ref={scroller}
        className="conversation-scroll"
        onScroll={(event) => {
          const el = event.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
        }}
      >
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
          <ItemStream
            items={sections.own}
            runs={runs}
            pendingRequests={pending}
            inherited={false}
            onFork={onFork}
            forking={forker.pending}
          />
        </section>
        {rolledBack > 0 && (
          <p className="muted rolled-back-note">
            {rolledBack} rolled-back run{rolledBack === 1 ? " is" : "s are"} hidden here; the Graph
            tab keeps them.
          </p>
        )}
        {forker.error && (
          <p className="error" role="alert">
            Fork failed: {forker.error}
          </p>
        )}
      </div>
      <Composer key={detail.thread.id} detail={detail} onSent={refresh} />
    </div>
  );
}
