"use client";
import { useRouter } from "next/navigation";
import type { KeyboardEvent } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { type SlashCommand, slashMatches } from "../../lib/slash-commands.ts";
import { useAction } from "../../lib/use-action.ts";
import { useFork } from "../../lib/use-fork.ts";
import { SuggestionMenu } from "./suggestion-menu.tsx";
import { useSuggestions } from "./use-suggestions.ts";

type SlashOptions = {
  threadId: string;
  text: string;
  setText(text: string): void;
  togglePlanMode(): void;
  /** The ids of the composer's model and provider menus, focused by `/model` and `/switch`. */
  modelMenuId: string;
  providerMenuId: string;
};

/**
 * Issue 29: `/fork`, `/plan`, `/compact`, `/model`, `/switch`, `/review` typed in the composer.
 * Each runs the action the page already has (the header's fork and compact, the plan toggle, the
 * menus, the review page); the typed command is cleared, never sent as a message.
 */
export function useSlashCommands(options: SlashOptions) {
  const { threadId, text, setText } = options;
  const client = useApi();
  const router = useRouter();
  const { refreshThread } = useShells();
  const forker = useFork(threadId);
  const compact = useAction();
  const matches = slashMatches(text);
  const run = (command: SlashCommand) => {
    setText("");
    const focus = (id: string) => document.getElementById(id)?.focus();
    switch (command) {
      case "fork":
        return forker.fork({ type: "latest_stable" });
      case "plan":
        return options.togglePlanMode();
      case "compact":
        return void compact.run(async () => {
          await client.thread.compact.mutate({ threadId });
          refreshThread(threadId);
        });
      case "model":
        return focus(options.modelMenuId);
      case "switch":
        return focus(options.providerMenuId);
      case "review":
        return router.push(`/threads/${threadId}/review`);
    }
  };
  const list = matches ?? [];
  const keys = useSuggestions(matches === null ? null : text, list.length, (index) => {
    const command = list[index];
    if (command) run(command.name);
  });
  const menu = keys.open ? (
    <SuggestionMenu
      label="Commands"
      items={list.map((c) => ({ key: c.name, label: `/${c.name}`, hint: c.hint }))}
      selected={keys.selected}
      onPick={(index) => {
        const command = list[index];
        if (command) run(command.name);
      }}
      empty="No such command"
    />
  ) : null;
  return {
    menu,
    onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => keys.onKeyDown(event),
    failure: forker.failure ?? compact.failure,
  };
}
