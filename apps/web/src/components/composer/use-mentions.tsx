"use client";
import { type KeyboardEvent, type RefObject, useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { insertMention, mentionAt } from "../../lib/mention-query.ts";
import { SuggestionMenu } from "./suggestion-menu.tsx";
import { useSuggestions } from "./use-suggestions.ts";

/** Files the popup offers at most (the API caps its answer as well). */
const SHOWN = 8;

/**
 * Issue 29: `@` in the composer searches the thread's workspace (bounded, on the server) and
 * inserts the picked file's relative path. Each keystroke asks again after a short pause; an
 * answer for an older query is dropped.
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
  const [answer, setAnswer] = useState<{ query: string; paths: string[] } | null>(null);
  useEffect(() => {
    if (query === null) return;
    let live = true;
    const timer = setTimeout(() => {
      client.workspace.searchFiles.query({ threadId, query, limit: SHOWN }).then(
        ({ paths }) => live && setAnswer({ query, paths }),
        // An unreadable workspace or a query the server refuses offers nothing.
        () => live && setAnswer({ query, paths: [] }),
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, threadId, query]);
  const paths = answer !== null && answer.query === query ? answer.paths : [];
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
        empty={answer?.query === query ? "No matching file" : "Searching…"}
      />
    ) : null;
  return { menu, onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => keys.onKeyDown(event) };
}
