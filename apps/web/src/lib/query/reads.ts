import type { SkeinClient } from "@skein/contract";
import { queryOptions } from "@tanstack/react-query";
import type { ProviderKind } from "../types.ts";
import { queryKeys } from "./keys.ts";

/**
 * The one-off reads, as options any screen (or test) hands to `useQuery`: the key and the read
 * always travel together, so a key never answers with another read's data.
 */
export const reads = {
  projects: (client: SkeinClient) =>
    queryOptions({
      queryKey: queryKeys.projects(),
      queryFn: () => client.project.list.query(),
    }),
  /** B15: the server keeps its own short cache; "check again" bypasses it (see the hook). */
  providerStatus: (client: SkeinClient) =>
    queryOptions({
      queryKey: queryKeys.providerStatus(),
      queryFn: () => client.provider.status.query(),
    }),
  /** Reading a catalog starts the provider's runtime on the server: once per page load. */
  providerModels: (client: SkeinClient, provider: ProviderKind) =>
    queryOptions({
      queryKey: queryKeys.providerModels(provider),
      queryFn: () => client.provider.models.query({ provider }),
      staleTime: Number.POSITIVE_INFINITY,
      // A provider that is not set up fails; the next screen to look asks again.
      retry: false,
    }),
  archivedThreads: (client: SkeinClient) =>
    queryOptions({
      queryKey: queryKeys.archivedThreads(),
      queryFn: () => client.thread.shells.query({ archived: true }),
    }),
  usage: (client: SkeinClient, days: number) =>
    queryOptions({
      queryKey: queryKeys.usage(days),
      queryFn: () => client.usage.summary.query({ days }),
      // Usage grows with every run; a revisit reads it again (and shows the last answer meanwhile).
      staleTime: 0,
    }),
  forkComparison: (client: SkeinClient, forkIds: readonly string[]) =>
    queryOptions({
      queryKey: queryKeys.forkComparison(forkIds),
      queryFn: () => client.thread.compare.query({ threadIds: [...forkIds] as never }),
    }),
  compareDiff: (client: SkeinClient, forkIds: readonly string[], path: string | null) =>
    queryOptions({
      queryKey: queryKeys.compareDiff(forkIds, path),
      queryFn: () =>
        client.thread.compareDiff.query({
          threadIds: [...forkIds] as never,
          ...(path === null ? {} : { path }),
        }),
    }),
};
