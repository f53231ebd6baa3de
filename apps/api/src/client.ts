import {
  createSkeinClient as createClient,
  type SkeinClient as Client,
  type SkeinClientOptions,
} from "@skein/client";
import type { AppRouter } from "./root.ts";

export type { AppRouter, RouterInputs, RouterOutputs, WatchMessage } from "./index.ts";
export type { SkeinClientOptions };

/** The built client (`@skein/client`) bound to this server's router: for tests, benches, peers. */
export type SkeinClient = Client<AppRouter>;

export function createSkeinClient(options: SkeinClientOptions): SkeinClient {
  return createClient<AppRouter>(options);
}
