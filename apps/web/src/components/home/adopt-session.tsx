"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { shortTime } from "../../lib/format.ts";
import type { RouterOutputs } from "@skein/contract";
import { DEFAULT_PROVIDER, type ProviderKind } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";
import { ProviderSelect } from "../common/provider-select.tsx";
import { Dialog } from "../ui/dialog.tsx";

type Listing = RouterOutputs["provider"]["sessions"][number];

/**
 * B6: "Adopt session": the person's own Codex threads / Claude sessions that ran in the
 * project's folder; adopting one opens it as an app thread that continues it natively.
 */
export function AdoptSession({ projectId }: { projectId: string }) {
  const client = useApi();
  const router = useRouter();
  const { projects, refreshThread } = useShells();
  const project = projects.find((p) => p.id === projectId);
  const [open, setOpen] = useState(false);
  const [provider, setProvider] = useState<ProviderKind | "">(DEFAULT_PROVIDER);
  const [sessions, setSessions] = useState<Listing[] | null>(null);
  const listing = useAction();
  const adopting = useAction();

  // biome-ignore lint/correctness/useExhaustiveDependencies: listing.run is stable per render
  useEffect(() => {
    if (!open || !provider || !project) return;
    setSessions(null);
    void listing.run(async () => {
      setSessions(
        await client.provider.sessions.query({ provider, workspaceRoot: project.workspaceRoot }),
      );
    });
  }, [open, provider, project, client]);

  const adopt = (session: Listing) => {
    if (!provider) return;
    void adopting.run(async () => {
      const { threadId } = await client.thread.adopt.mutate({
        projectId,
        provider,
        providerThreadId: session.nativeThreadRef,
      });
      refreshThread(threadId);
      setOpen(false);
      router.push(`/threads/${threadId}`);
    });
  };

  return (
    <section className="panel form" aria-labelledby="adopt-heading">
      <h2 id="adopt-heading">Continue a session started elsewhere</h2>
      <div className="row">
        <button type="button" onClick={() => setOpen(true)} disabled={!project}>
          Adopt session
        </button>
      </div>
      <Dialog open={open} onOpenChange={setOpen} title="Adopt session">
        <div className="form adopt-session" style={{ padding: "0 16px 16px" }}>
          <div className="row">
            <label htmlFor="adopt-provider">Provider</label>
            <ProviderSelect id="adopt-provider" value={provider} onChange={setProvider} />
          </div>
          {listing.pending && <p className="muted">Reading sessions…</p>}
          {sessions?.length === 0 && (
            <p className="muted">No sessions ran in {project?.workspaceRoot}.</p>
          )}
          {sessions && sessions.length > 0 && (
            <ul className="adopt-sessions" aria-label="Sessions">
              {sessions.map((session) => (
                <li key={session.nativeThreadRef} data-session={session.nativeThreadRef}>
                  <span className="adopt-title">{session.title}</span>{" "}
                  <span className="muted">{shortTime(session.updatedAt)}</span>{" "}
                  {session.threadId ? (
                    <a href={`/threads/${session.threadId}`}>Open</a>
                  ) : (
                    <button
                      type="button"
                      disabled={adopting.pending}
                      onClick={() => adopt(session)}
                      aria-label={`Adopt ${session.title}`}
                    >
                      Adopt
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <ActionError error={listing.failure} />
          <ActionError error={adopting.failure} prefix="Not adopted." />
        </div>
      </Dialog>
    </section>
  );
}
