"use client";
import { Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useEffect, useState } from "react";
import { chordLabel, SHORTCUTS } from "../../lib/shortcuts.ts";

const ORDER = ["system", "light", "dark"] as const;
type Mode = (typeof ORDER)[number];
const ICON = { system: Monitor, light: Sun, dark: Moon } as const;

export function nextMode(mode: string | undefined): Mode {
  const at = ORDER.indexOf((mode ?? "system") as Mode);
  return ORDER[(at + 1) % ORDER.length]!;
}

/**
 * System → light → dark. The choice persists (next-themes: localStorage, applied before first
 * paint); "system" follows the OS and is the default.
 */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  // The server cannot know the stored choice: render the neutral icon until mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const mode = (mounted ? theme : "system") as Mode;
  const Icon = ICON[mode] ?? Monitor;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Theme: ${mode}. Switch to ${nextMode(mode)}`}
      title={`Theme: ${mode} (${chordLabel(SHORTCUTS.toggleTheme)})`}
      data-theme-mode={mode}
      onClick={() => setTheme(nextMode(mode))}
    >
      <Icon size={16} aria-hidden />
    </button>
  );
}
