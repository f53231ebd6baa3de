"use client";
import { useEffect, useState } from "react";
import { useApi } from "./api-context.tsx";
import { type ApiFailure, describeError } from "./errors.ts";
import type { RouterOutputs } from "@skein/contract";

export type CompareDiff = RouterOutputs["thread"]["compareDiff"];

/**
 * B9 side by side: the forks' diffs of one file (or all, `path` null), read while `open` and
 * again whenever `version` changes (the comparison's file counts moved: a fork wrote more).
 */
export function useCompareDiff(
  forkIds: readonly string[],
  path: string | null,
  open: boolean,
  version: string,
): { diff: CompareDiff | null; failure: ApiFailure | null; loading: boolean } {
  const client = useApi();
  const [diff, setDiff] = useState<CompareDiff | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [loading, setLoading] = useState(false);
  const ids = forkIds.join(",");

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` asks for a fresh read
  useEffect(() => {
    if (!open || ids === "") return;
    let current = true;
    setLoading(true);
    client.thread.compareDiff
      .query({ threadIds: ids.split(",") as never, ...(path === null ? {} : { path }) })
      .then(
        (next) => {
          if (!current) return;
          setDiff(next);
          setFailure(null);
        },
        (error: unknown) => current && setFailure(describeError(error)),
      )
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [client, ids, path, open, version]);

  return { diff, failure, loading };
}
