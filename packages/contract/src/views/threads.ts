import type { ThreadId } from "@skein/domain";
import type { NativeSessionSummary } from "@skein/domain/provider";

export type ThreadImportResult = {
  threadId: string;
  /** Streams appended by this import. */
  imported: number;
  /** Streams this store already held with exactly the exported history (a repeat, a shared project). */
  alreadyPresent: number;
  events: number;
  sequence: number;
};

/** A native session of the person's own, and the app thread already bound to it (if any). */
export type ProviderSessionListing = NativeSessionSummary & { threadId: ThreadId | null };
