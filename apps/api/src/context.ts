import type { EventStore } from "@skein/db";
import type { AuthState } from "./auth.ts";
import type { OrchestratorCommands } from "./orchestrator/service-types.ts";
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
  watch: WatchSettings;
  /** The instance that forwarded this call here (runtime commands), or null for a client's call. */
  forwardedBy: string | null;
};
