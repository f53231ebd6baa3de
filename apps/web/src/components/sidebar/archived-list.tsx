"use client";
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { describeError } from "../../lib/errors.ts";
import { queryKeys } from "../../lib/query/keys.ts";
import { reads } from "../../lib/query/reads.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadShellList } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

/** The archived threads (`thread.shells({ archived: true })`), read when opened, with Unarchive. */
export function ArchivedList() {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const query = useQuery({ ...reads.archivedThreads(client), enabled: open, staleTime: 0 });
  const archived = query.data?.threads ?? null;
  const unarchive = useAction();

  // A thread leaving or joining the live list (archived, brought back; the list follows the
  // event stream) changes this one too.
  const liveCount = shells.size;
  const seenCount = useRef(liveCount);
  useEffect(() => {
    if (seenCount.current === liveCount) return;
    seenCount.current = liveCount;
    void queryClient.invalidateQueries({ queryKey: queryKeys.archivedThreads() });
  }, [liveCount, queryClient]);

  return (
    <section className="archived-list" aria-label="Archived threads">
      <button
        type="button"
        className="archived-toggle"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? "▾" : "▸"} Archived
        {archived !== null && open ? ` (${archived.length})` : ""}
      </button>
      {open && (
        <>
          <ActionError
            error={query.error === null ? null : describeError(query.error)}
            prefix="Could not list archived threads."
          />
          <ActionError error={unarchive.failure} prefix="Unarchive failed." />
          {archived === null ? (
            <p className="muted pad">Loading…</p>
          ) : archived.length === 0 ? (
            <p className="muted pad">No archived threads.</p>
          ) : (
            <ul>
              {archived.map((shell) => (
                <li key={shell.id} className="archived-row" data-thread-id={shell.id}>
                  <Link href={`/threads/${shell.id}`} title={shell.title}>
                    {shell.title}
                  </Link>
                  <button
                    type="button"
                    className="small"
                    aria-label={`Unarchive ${shell.title}`}
                    disabled={unarchive.pending}
                    onClick={() =>
                      void unarchive.run(async () => {
                        await client.thread.unarchive.mutate({ threadId: shell.id });
                        refreshThread(shell.id);
                        queryClient.setQueryData<ThreadShellList>(
                          queryKeys.archivedThreads(),
                          (list) =>
                            list && {
                              ...list,
                              threads: list.threads.filter((t) => t.id !== shell.id),
                            },
                        );
                      })
                    }
                  >
                    Unarchive
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
