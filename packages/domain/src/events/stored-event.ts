/**
 * The store envelope around a domain event (docs/design.md). Defined with the domain rather than
 * the store so the API contract can name what a watch sends without depending on the store.
 */
export type StoredEvent = {
  /** Global, store-assigned, strictly increasing (S1). */
  sequence: number;
  streamId: string;
  /** 1-based position within the stream. */
  streamVersion: number;
  type: string;
  data: unknown;
  commandId: string | null;
  /** ISO-8601, store clock; diagnostic only. */
  recordedAt: string;
};
