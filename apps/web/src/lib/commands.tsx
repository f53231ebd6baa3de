"use client";
import {
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { requiredContext } from "./required-context.ts";
import { matches, SHORTCUTS, type ShortcutName } from "./shortcuts.ts";

export type Command = {
  id: string;
  label: string;
  group: "Thread" | "Go to" | "View";
  shortcut?: ShortcutName;
  /** Send, steer and interrupt belong to the composer's text box; the rest work anywhere. */
  scope?: "global" | "composer";
  keywords?: string[];
  run(): void;
};

type CommandsState = {
  list(): Command[];
  register(command: Command): () => void;
  paletteOpen: boolean;
  setPaletteOpen(open: boolean): void;
};

const { Context: CommandsContext, useRequired: useCommandsState } =
  requiredContext<CommandsState>("<CommandsProvider>");

/**
 * The actions a view offers right now (fork, interrupt, new thread…), registered by the views
 * themselves, so the command palette and the global shortcuts always match what is on screen.
 */
export function CommandsProvider({ children }: { children?: ReactNode }) {
  const commands = useRef(new Map<string, Command>());
  const [paletteOpen, setPaletteOpen] = useState(false);
  const register = useCallback((command: Command) => {
    commands.current.set(command.id, command);
    return () => {
      if (commands.current.get(command.id) === command) commands.current.delete(command.id);
    };
  }, []);
  const list = useCallback(() => [...commands.current.values()], []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (matches(SHORTCUTS.palette, event)) {
        event.preventDefault();
        setPaletteOpen((open) => !open);
        return;
      }
      for (const command of commands.current.values()) {
        if (!command.shortcut || command.scope === "composer") continue;
        if (matches(SHORTCUTS[command.shortcut], event)) {
          event.preventDefault();
          command.run();
          return;
        }
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const value = useMemo(
    () => ({ list, register, paletteOpen, setPaletteOpen }),
    [list, register, paletteOpen],
  );
  return <CommandsContext.Provider value={value}>{children}</CommandsContext.Provider>;
}

export function useCommands(): CommandsState {
  return useCommandsState();
}

/**
 * Offers a command while the calling view is mounted and `enabled`. The latest `run` is always
 * the one called, so callers need not memoise it.
 */
export function useCommand(command: Command, enabled = true): void {
  const state = useContext(CommandsContext);
  const latest = useRef(command);
  latest.current = command;
  const { id, label, group, shortcut, scope } = command;
  const keywords = command.keywords?.join(" ");
  useEffect(() => {
    if (!state || !enabled) return;
    return state.register({
      id,
      label,
      group,
      ...(shortcut ? { shortcut } : {}),
      ...(scope ? { scope } : {}),
      ...(keywords ? { keywords: keywords.split(" ") } : {}),
      run: () => latest.current.run(),
    });
  }, [state, enabled, id, label, group, shortcut, scope, keywords]);
}
