"use client";
import type { RouterOutputs } from "@skein/contract";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { useApi } from "./api-context.tsx";
import { type ApiFailure, describeError } from "./errors.ts";
import { queryKeys } from "./query/keys.ts";
import { reads } from "./query/reads.ts";

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
  const queryClient = useQueryClient();
  const ids = forkIds.join(",");
  const stableIds = useMemo(() => (ids === "" ? [] : ids.split(",")), [ids]);
  const query = useQuery({
    ...reads.compareDiff(client, stableIds, path),
    enabled: open && stableIds.length > 0,
    placeholderData: keepPreviousData,
  });
  // A fork wrote more: every cached file's diffs of these forks are out of date, not only the
  // one shown (the others are read again when picked).
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void queryClient.invalidateQueries({ queryKey: queryKeys.compareDiffs(stableIds) });
  }, [queryClient, stableIds, version]);

  return {
    diff: query.data ?? null,
    failure: query.error === null ? null : describeError(query.error),
    loading: query.isFetching,
  };
}
