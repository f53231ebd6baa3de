"use client";
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadShell } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

/** The archived threads (`thread.shells({ archived: true })`), read when opened, with Unarchive. */
export function ArchivedList() {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const [open, setOpen] = useState(false);
  const [archived, setArchived] = useState<readonly ThreadShell[] | null>(null);
  const load = useAction();
  const unarchive = useAction();

  const reload = useCallback(
    () =>
      load.run(async () => {
        const list = await client.thread.shells.query({ archived: true });
        setArchived(list.threads);
      }),
    [client, load.run],
  );
  // A thread leaving or joining the live list (archived, brought back) changes this one too.
  const liveCount = shells.size;
  useEffect(() => {
    if (open && liveCount >= 0) void reload();
  }, [open, liveCount, reload]);

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
          <ActionError error={load.failure} prefix="Could not list archived threads." />
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
                        setArchived((list) => list?.filter((t) => t.id !== shell.id) ?? null);
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
