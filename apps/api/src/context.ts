import type { EventStore, RawLogReader } from "@skein/db";
import type { AuthState } from "./auth.ts";
import type { CallOrigin, OrchestratorCommands } from "./orchestrator/service-types.ts";
import type { ReadModels } from "./read-models/index.ts";

/** Tunables of the watch procedures (tests shrink them to reach the edge cases quickly). */
export type WatchSettings = {
  maxReplayEvents: number;
  /** Aborted when the server shuts down, ending every open subscription. */
  shutdownSignal: AbortSignal;
};

/** What every procedure gets: the command side, the store, the read side and who is calling. */
export type ApiContext = {
  orchestrator: OrchestratorCommands;
  store: EventStore;
  readModels: ReadModels;
  auth: AuthState;
  /** Skein's own folders (its data dir), which no workspace may be or lie inside (B4). */
  dataDirs: readonly string[];
  watch: WatchSettings;
  /** The raw provider log (E18) this instance writes, read back by `events.raw`; null if none. */
  rawLog: RawLogReader | null;
  /** The instance that forwarded this call here (runtime commands), or null for a client's call. */
  forwardedBy: string | null;
};

/** A call another instance forwarded here carries its origin to the orchestrator. */
export function originOf(ctx: ApiContext): CallOrigin | undefined {
  return ctx.forwardedBy === null ? undefined : { forwardedBy: ctx.forwardedBy };
}
