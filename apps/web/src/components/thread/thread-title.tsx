"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

/** The thread's title, renamed in place through `thread.updateSettings`. */
export function ThreadTitle({ threadId, title }: { threadId: string; title: string }) {
  const client = useApi();
  const { refreshThread } = useShells();
  const rename = useAction();
  const [draft, setDraft] = useState<string | null>(null);
  // The name just saved, shown until the thread's own title (from the event stream) catches up:
  // the old name must not flash back between the answer and the stream's update.
  // Held only while the title it replaced is still the one given: any update of the title ends it.
  const [saved, setSaved] = useState<{ name: string; over: string } | null>(null);
  const shown = saved !== null && saved.over === title ? saved.name : title;

  if (draft === null) {
    return (
      <>
        <h1 className="thread-title">{shown}</h1>
        <button
          type="button"
          className="small"
          aria-label={`Rename ${shown}`}
          onClick={() => {
            rename.clearError();
            setDraft(shown);
          }}
        >
          Rename
        </button>
        <ActionError error={rename.failure} prefix="Rename failed." />
      </>
    );
  }
  const next = draft.trim();
  return (
    <form
      className="thread-rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (next === "" || next === shown) {
          setDraft(null);
          return;
        }
        void rename.run(async () => {
          await client.thread.updateSettings.mutate({ threadId, title: next });
          refreshThread(threadId);
          setSaved({ name: next, over: title });
          setDraft(null);
        });
      }}
    >
      <input
        aria-label="Thread title"
        value={draft}
        maxLength={200}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to rename
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setDraft(null);
        }}
      />
      <button type="submit" disabled={rename.pending || next === ""}>
        {rename.pending ? "Saving…" : "Save"}
      </button>
      <button type="button" onClick={() => setDraft(null)}>
        Cancel
      </button>
      <ActionError error={rename.failure} prefix="Rename failed." />
    </form>
  );
}
