"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { queryKeys } from "./query/keys.ts";
import { reads } from "./query/reads.ts";
import type { ProviderStatus } from "./types.ts";

/**
 * B15: every provider's readiness (authentication included). One shared query: the home page,
 * the composer's notice and every provider menu ask once between them. `checkAgain` asks the
 * server to check again now instead of answering from its short cache, and every screen shows it.
 */
export function useProviderStatus() {
  const client = useApi();
  const queryClient = useQueryClient();
  const query = useQuery(reads.providerStatus(client));
  const again = useMutation({
    mutationFn: () => client.provider.status.query({ refresh: true }),
    onSuccess: (fresh) => queryClient.setQueryData(queryKeys.providerStatus(), fresh),
  });
  const failure = again.error ?? query.error;
  return {
    statuses: query.data ?? null,
    error: failure === null ? null : errorMessage(failure),
    checking: query.isFetching || again.isPending,
    checkAgain: () =>
      again.mutateAsync().then(
        () => undefined,
        () => undefined,
      ),
  };
}

/** "Ready — signed in with …" or "Not ready", as a person reads it. */
export function readinessWords(status: ProviderStatus): string {
  if (!status.ready) return status.found ? "Not ready" : "Not installed";
  const how = status.auth?.method;
  if (!how) return "Ready";
  return status.auth?.state === "not-required"
    ? `Ready — uses ${how}`
    : `Ready — signs in with ${how}`;
}
