"use client";
import { Command as CommandIcon } from "lucide-react";
import { useCommands } from "../../lib/commands.tsx";
import { chordLabel, SHORTCUTS } from "../../lib/shortcuts.ts";
import { DebugToggle } from "./debug-toggle.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";

/** The sidebar's corner: command palette, theme and debug details. */
export function AppTools() {
  const { setPaletteOpen } = useCommands();
  return (
    <div className="app-tools">
      <button
        type="button"
        className="icon-button"
        aria-label="Command palette"
        aria-keyshortcuts={chordLabel(SHORTCUTS.palette, false).replace("Ctrl", "Control")}
        title={`Command palette (${chordLabel(SHORTCUTS.palette)})`}
        onClick={() => setPaletteOpen(true)}
      >
        <CommandIcon size={16} aria-hidden />
      </button>
      <ThemeToggle />
      <DebugToggle />
    </div>
  );
}
