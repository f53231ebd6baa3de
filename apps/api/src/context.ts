import type { OrchestratorCommands } from "@skein/contract";
import type { EventStore, RawLogReader } from "@skein/db";
import type { ReadModels } from "./read-models/index.ts";

/** Tunables of the watch procedures (tests shrink them to reach the edge cases quickly). */
export type WatchSettings = {
  maxReplayEvents: number;
  /** Aborted when the server shuts down, ending every open subscription. */
  shutdownSignal: AbortSignal;
};

/**
 * What the host's services are built from (see services.ts): the command side, the store, the
 * read side and the watch settings. The router never sees these; it gets the ports.
 */
export type ApiContext = {
  orchestrator: OrchestratorCommands;
  store: EventStore;
  readModels: ReadModels;
  watch: WatchSettings;
  /** The raw provider log (E18) this instance writes, read back by `events.raw`; null if none. */
  rawLog: RawLogReader | null;
};
