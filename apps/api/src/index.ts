/**
 * The API server as a library: the host of `@skein/contract`'s router. Clients import the
 * contract and `@skein/client`, never this.
 */
export type { ApiContext, WatchSettings } from "./context.ts";
export { createSkeinServices } from "./services.ts";
export { type SkeinServer, type SkeinServerOptions, startServer } from "./server.ts";
// Issue 27: a provider package's tests register it beside the built-in ones, as a host would.
export {
  createServerAdapters,
  type ExtraRegistration,
  type ProviderRegistration,
  providerRegistry,
} from "./providers/provider-registry.ts";
