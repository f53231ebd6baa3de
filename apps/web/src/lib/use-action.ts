"use client";
import { useCallback, useRef, useState } from "react";
import { errorMessage } from "./errors.ts";

export type Action = {
  pending: boolean;
  error: string | null;
  /** Runs `fn` unless one is already in flight; failures land in `error`, never thrown. */
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
  clearError(): void;
};

/** Pending/error bookkeeping for one button or form that calls a mutation. */
export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setPending(true);
    setError(null);
    try {
      return await fn();
    } catch (caught) {
      setError(errorMessage(caught));
      return undefined;
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, []);
  return { pending, error, run, clearError: useCallback(() => setError(null), []) };
}
