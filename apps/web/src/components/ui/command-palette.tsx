"use client";
import { Command } from "cmdk";
import { MessageSquare } from "lucide-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { type Command as SkeinCommand, useCommands } from "../../lib/commands.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { SHORTCUTS } from "../../lib/shortcuts.ts";
import { preopenThreadDetail } from "../../lib/use-thread-detail.ts";
import { Dialog } from "./dialog.tsx";
import { Kbd } from "./kbd.tsx";

const MAX_THREADS = 40;
const GROUPS: SkeinCommand["group"][] = ["Thread", "Go to", "View"];

/**
 * Ctrl/⌘+K: every action the current view offers, plus "open thread…" over all threads. cmdk
 * does the listbox (arrow keys, Enter, type-to-filter); threads are filtered here and capped so a
 * 10,000-thread project opens the palette as fast as a small one.
 */
export function CommandPalette() {
  const { paletteOpen, setPaletteOpen, list } = useCommands();
  const { shells } = useShells();
  const router = useRouter();
  const client = useApi();
  const [query, setQuery] = useState("");
  const commands = paletteOpen ? list() : [];

  const threads = useMemo(() => {
    if (!paletteOpen) return [];
    const q = query.trim().toLowerCase();
    const found = [];
    for (const shell of shells.values()) {
      if (q === "" || shell.title.toLowerCase().includes(q)) found.push(shell);
    }
    found.sort((a, b) => (a.lastActivityAt < b.lastActivityAt ? 1 : -1));
    return found.slice(0, MAX_THREADS);
  }, [paletteOpen, query, shells]);

  const close = () => {
    setPaletteOpen(false);
    setQuery("");
  };
  const commandMatches = (command: SkeinCommand) => {
    const q = query.trim().toLowerCase();
    return (
      q === "" ||
      [command.label, ...(command.keywords ?? [])].some((t) => t.toLowerCase().includes(q))
    );
  };

  return (
    <Dialog
      open={paletteOpen}
      onOpenChange={(open) => (open ? setPaletteOpen(true) : close())}
      title="Command palette"
      hideTitle
    >
      <Command label="Search commands and threads" shouldFilter={false} className="command-palette">
        <Command.Input
          value={query}
          onValueChange={setQuery}
          placeholder="Type a command or a thread title…"
          className="palette-input"
        />
        <Command.List className="palette-list">
          <Command.Empty className="palette-empty">Nothing matches.</Command.Empty>
          {GROUPS.map((group) => {
            const items = commands.filter((c) => c.group === group && commandMatches(c));
            if (items.length === 0) return null;
            return (
              <Command.Group key={group} heading={group} className="palette-group">
                {items.map((command) => (
                  <Command.Item
                    key={command.id}
                    value={command.id}
                    onSelect={() => {
                      close();
                      command.run();
                    }}
                    className="palette-item"
                  >
                    <span className="palette-label">{command.label}</span>
                    {command.shortcut && <Kbd chord={SHORTCUTS[command.shortcut]} />}
                  </Command.Item>
                ))}
              </Command.Group>
            );
          })}
          {threads.length > 0 && (
            <Command.Group heading="Threads" className="palette-group">
              {threads.map((shell) => (
                <Command.Item
                  key={shell.id}
                  value={`thread:${shell.id}`}
                  onSelect={() => {
                    close();
                    preopenThreadDetail(client, shell.id, shell.runCount);
                    router.push(`/threads/${shell.id}`);
                  }}
                  className="palette-item"
                >
                  <MessageSquare size={14} aria-hidden className="muted" />
                  <span className="palette-title">{shell.title}</span>
                </Command.Item>
              ))}
            </Command.Group>
          )}
        </Command.List>
      </Command>
    </Dialog>
  );
}
