"use client";
import { useCallback, useRef, useState } from "react";
import { type ApiFailure, describeError } from "./errors.ts";

export type Action = {
  pending: boolean;
  /** The last failure in words (see `failure` for its code). */
  error: string | null;
  failure: ApiFailure | null;
  /** Runs `fn` unless one is already in flight; failures land in `error`, never thrown. */
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
  clearError(): void;
};

/** Pending/error bookkeeping for one button or form that calls a mutation. */
export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const inFlight = useRef(false);
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setPending(true);
    setFailure(null);
    try {
      return await fn();
    } catch (caught) {
      setFailure(describeError(caught));
      return undefined;
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, []);
  return {
    pending,
    error: failure?.message ?? null,
    failure,
    run,
    clearError: useCallback(() => setFailure(null), []),
  };
}
