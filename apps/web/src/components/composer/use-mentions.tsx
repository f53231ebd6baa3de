"use client";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type RefObject, useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { insertMention, mentionAt } from "../../lib/mention-query.ts";
import { queryKeys } from "../../lib/query/keys.ts";
import { SuggestionMenu } from "./suggestion-menu.tsx";
import { useSuggestions } from "./use-suggestions.ts";

/** Files the popup offers at most (the API caps its answer as well). */
const SHOWN = 8;

/**
 * Issue 29: `@` in the composer searches the thread's workspace (bounded, on the server) and
 * inserts the picked file's relative path. Each keystroke asks again after a short pause (one
 * cached query per text typed: going back a letter does not ask the server again); an answer for
 * an older query is never shown.
 */
export function useMentions(options: {
  threadId: string;
  text: string;
  caret: number;
  box: RefObject<HTMLTextAreaElement | null>;
  setText(text: string): void;
}) {
  const { threadId, text, caret, box, setText } = options;
  const client = useApi();
  const mention = mentionAt(text, caret);
  const query = mention?.query ?? null;
  // The query asked for is the one typed once typing pauses.
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    if (query === null) return;
    const timer = setTimeout(() => setAsked(query), 120);
    return () => clearTimeout(timer);
  }, [query]);
  const search = useQuery({
    queryKey: queryKeys.workspaceFiles(threadId, asked ?? ""),
    queryFn: () =>
      client.workspace.searchFiles
        .query({ threadId, query: asked ?? "", limit: SHOWN })
        // An unreadable workspace or a query the server refuses offers nothing.
        .then(
          ({ paths }) => paths,
          () => [] as string[],
        ),
    enabled: asked !== null && asked === query,
    // The workspace changes as agents write: a query typed again a while later asks again.
    staleTime: 10_000,
  });
  const answered = asked === query && search.data !== undefined;
  const paths = answered ? search.data : [];
  const pick = (index: number) => {
    const path = paths[index];
    if (!mention || path === undefined) return;
    const next = insertMention(text, mention.start, caret, path);
    setText(next.text);
    // The caret goes after the inserted path once React has put the new text in the box.
    requestAnimationFrame(() => box.current?.setSelectionRange(next.caret, next.caret));
  };
  const keys = useSuggestions(query, paths.length, pick);
  const menu =
    keys.open && query !== null ? (
      <SuggestionMenu
        label="Files"
        items={paths.map((path) => ({ key: path, label: path }))}
        selected={keys.selected}
        onPick={pick}
        empty={answered ? "No matching file" : "Searching…"}
      />
    ) : null;
  return { menu, onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => keys.onKeyDown(event) };
}
