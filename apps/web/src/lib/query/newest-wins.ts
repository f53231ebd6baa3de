import { replaceEqualDeep } from "@tanstack/react-query";

/**
 * `structuralSharing` for projections carrying the sequence they reflect: an answer older than
 * what the cache holds (a read that left before a newer watch snapshot landed) is dropped, so what
 * is shown never goes back. Otherwise unchanged parts keep their identity (fewer renders).
 */
export function newestWins(previous: unknown, next: unknown): unknown {
  if (sequenceOf(previous) > sequenceOf(next)) return previous;
  return replaceEqualDeep(previous, next);
}

function sequenceOf(value: unknown): number {
  if (typeof value !== "object" || value === null || !("snapshotSequence" in value)) return -1;
  return typeof value.snapshotSequence === "number" ? value.snapshotSequence : -1;
}

/**
 * The same rule without structural sharing, for answers the caller already shares itself (the
 * thread detail, whose live store keeps unchanged items' identity item by item).
 */
export function newestOf(previous: unknown, next: unknown): unknown {
  return sequenceOf(previous) > sequenceOf(next) ? previous : next;
}
