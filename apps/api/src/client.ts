import type { AppRouter } from "@skein/contract";
import {
  createSkeinClient as createClient,
  type SkeinClient as Client,
  type SkeinClientOptions,
} from "@skein/client";

export type { AppRouter, RouterInputs, RouterOutputs, WatchMessage } from "@skein/contract";
export type { SkeinClientOptions };

/** The built client (`@skein/client`) bound to Skein's router: for tests, benches, peers. */
export type SkeinClient = Client<AppRouter>;

export function createSkeinClient(options: SkeinClientOptions): SkeinClient {
  return createClient<AppRouter>(options);
}
