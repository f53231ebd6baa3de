"use client";
import { useCallback, useEffect, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import type { ProviderStatus } from "./types.ts";

/**
 * B15: every provider's readiness (authentication included), read once on mount; `checkAgain`
 * asks the server to check again now instead of answering from its short cache.
 */
export function useProviderStatus() {
  const client = useApi();
  const [statuses, setStatuses] = useState<ProviderStatus[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(true);

  const load = useCallback(
    async (refresh: boolean, isCancelled: () => boolean = () => false) => {
      setChecking(true);
      try {
        const result = await client.provider.status.query(refresh ? { refresh } : undefined);
        if (isCancelled()) return;
        setStatuses(result);
        setError(null);
      } catch (caught: unknown) {
        if (!isCancelled()) setError(errorMessage(caught));
      } finally {
        if (!isCancelled()) setChecking(false);
      }
    },
    [client],
  );

  useEffect(() => {
    let cancelled = false;
    void load(false, () => cancelled);
    return () => {
      cancelled = true;
    };
  }, [load]);

  return { statuses, error, checking, checkAgain: () => load(true) };
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
