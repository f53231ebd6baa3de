import type { EventData } from "../../events.ts";
import { addItem, touchShell } from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";

export function onThreadCreated(s: ThreadState, d: EventData<"ThreadCreated">): void {
  s.thread = d.thread;
  touchShell(s, d.at);
}

export function onThreadForked(s: ThreadState, d: EventData<"ThreadForked">): void {
  s.thread = d.thread;
  s.inheritance = d.inheritance;
  addItem(s, d.item, d.inheritance.transferId);
  touchShell(s, d.at);
}

export function onThreadSettingsUpdated(
  s: ThreadState,
  d: EventData<"ThreadSettingsUpdated">,
): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, ...d.changes, updatedAt: d.at };
  touchShell(s, d.at);
}

export function onThreadArchived(s: ThreadState, d: EventData<"ThreadArchived">): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, archivedAt: d.at, updatedAt: d.at };
  touchShell(s, d.at);
}

export function onThreadUnarchived(s: ThreadState, d: EventData<"ThreadUnarchived">): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, archivedAt: null, updatedAt: d.at };
  touchShell(s, d.at);
}

export function onThreadDeleted(s: ThreadState, d: EventData<"ThreadDeleted">): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, deletedAt: d.at, updatedAt: d.at };
  touchShell(s, d.at);
}

export function onThreadPurged(s: ThreadState, d: EventData<"ThreadPurged">): void {
  s.purgedAt = d.at;
}

/** A promoted thread is a root of its own; its items and runs stay as they were. */
export function onThreadPromoted(s: ThreadState, d: EventData<"ThreadPromoted">): void {
  if (!s.thread) return;
  const lineage = { parentThreadId: null, relationshipToParent: null, rootThreadId: s.thread.id };
  s.thread = { ...s.thread, lineage, updatedAt: d.at };
  touchShell(s, d.at);
}
