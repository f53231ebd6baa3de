"use client";
import type { RouterOutputs } from "@skein/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useDebug } from "../../lib/debug-mode.tsx";
import { queryKeys } from "../../lib/query/keys.ts";
import type { TurnItem } from "../../lib/types.ts";

type RawFramesView = RouterOutputs["events"]["raw"];

/**
 * B8: the raw provider frames an item came from, fetched when the disclosure opens (diagnostics:
 * never loaded with the conversation, and shown only with debug details on). Each frame shows
 * the store sequence it led to, if any.
 */
export function RawFrames({ item }: { item: TurnItem }) {
  const { debug } = useDebug();
  const { rawFrames, runId, nodeId, threadId } = item;
  if (!debug || !rawFrames || runId === null || nodeId === null) return null;
  // Its own component: a long conversation's items hold no query unless debug details are on.
  return <RawFramesDisclosure threadId={threadId} runId={runId} nodeId={nodeId} />;
}

function RawFramesDisclosure({
  threadId,
  runId,
  nodeId,
}: {
  threadId: string;
  runId: string;
  nodeId: string;
}) {
  const client = useApi();
  const [opened, setOpened] = useState(false);
  // Read the first time it is opened (one query per node, whichever card opens it); a card
  // drawn again shows the frames read before and reads again behind them (a running node has more).
  const query = useQuery({
    queryKey: queryKeys.rawFrames(threadId, runId, nodeId),
    queryFn: () => client.events.raw.query({ threadId, runId, nodeId }),
    enabled: opened,
    staleTime: 0,
  });
  const view: RawFramesView | null = query.data ?? null;
  const error =
    query.error === null
      ? null
      : query.error instanceof Error
        ? query.error.message
        : String(query.error);
  return (
    <details
      className="raw-frames"
      data-testid="raw-frames"
      onToggle={(e) => e.currentTarget.open && setOpened(true)}
    >
      <summary className="muted">raw</summary>
      {error !== null && <p className="error">{error}</p>}
      {view === null && error === null && <p className="muted">Loading…</p>}
      {view !== null && view.frames.length === 0 && (
        <p className="muted">
          {view.logged ? "The frames have rotated out of the raw log." : "No raw log is kept."}
        </p>
      )}
      {view !== null && view.frames.length > 0 && (
        <ol className="raw-frame-list">
          {view.frames.map((frame) => (
            <li key={frame.rawEventId} data-raw-event-id={frame.rawEventId}>
              <details>
                <summary>
                  <code>{frame.direction === "outgoing" ? "→" : "←"}</code>{" "}
                  <code>{frame.method ?? frame.messageKind}</code>
                  {frame.sequence !== null && <span className="muted"> #{frame.sequence}</span>}
                  {frame.observedAt && (
                    <span className="muted"> {frame.observedAt.slice(11, 23)}</span>
                  )}
                </summary>
                <pre>{JSON.stringify(frame.payload, null, 2)}</pre>
              </details>
            </li>
          ))}
          {view.truncated && <li className="muted">…more frames than shown</li>}
        </ol>
      )}
    </details>
  );
}
