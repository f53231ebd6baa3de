"use client";
import { memo } from "react";
import type { PendingRequest, TurnItem } from "../../lib/types.ts";
import { TurnItemView } from "../items/turn-item-view.tsx";

type ItemProps = { item: TurnItem; pendingRequests: ReadonlyMap<string, PendingRequest> };

/**
 * A turn item that renders again only when it changed. The live detail keeps the object of an
 * item nothing changed (a delta replaces only the streaming item; a re-read reuses equal ones),
 * so identity says it all. Only an approval also reads the pending requests.
 */
export const StableItem = memo(
  function StableItem({ item, pendingRequests }: ItemProps) {
    return <TurnItemView item={item} pendingRequests={pendingRequests} />;
  },
  (a, b) =>
    a.item === b.item &&
    (a.pendingRequests === b.pendingRequests || a.item.type !== "approval_request"),
);
