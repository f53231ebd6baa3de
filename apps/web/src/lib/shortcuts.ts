/**
 * Keyboard shortcuts as data: one chord per command, matched against a KeyboardEvent. "Mod" is
 * ⌘ on macOS and Ctrl elsewhere. Chords avoid what the browser owns (Ctrl+N/T/W) and what a text
 * box needs (plain letters), so they work with focus anywhere, the composer included.
 */
export type Chord = { key: string; mod?: boolean; alt?: boolean; shift?: boolean };

export const SHORTCUTS = {
  palette: { key: "k", mod: true },
  newThread: { key: "n", alt: true, shift: true },
  fork: { key: "f", alt: true, shift: true },
  nextThread: { key: "ArrowDown", alt: true },
  previousThread: { key: "ArrowUp", alt: true },
  send: { key: "Enter" },
  steer: { key: "Enter" },
  interrupt: { key: "Escape" },
  toggleTheme: { key: "l", alt: true, shift: true },
} as const satisfies Record<string, Chord>;

export type ShortcutName = keyof typeof SHORTCUTS;

export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
}

type KeyLike = Pick<KeyboardEvent, "key" | "code" | "metaKey" | "ctrlKey" | "altKey" | "shiftKey">;

/** Letters by `code` too: Alt+Shift+F types "Ï" on a Mac keyboard, yet `code` stays "KeyF". */
export function matches(chord: Chord, event: KeyLike, mac = isMac()): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey;
  if (!!chord.mod !== mod || !!chord.alt !== event.altKey || !!chord.shift !== event.shiftKey) {
    return false;
  }
  if (!mac && event.metaKey) return false;
  if (chord.key.length === 1) {
    return event.key.toLowerCase() === chord.key || event.code === `Key${chord.key.toUpperCase()}`;
  }
  return event.key === chord.key;
}

/** "Ctrl+K", "Alt+Shift+F", "⌘K" — how a chord is shown in menus and tooltips. */
export function chordLabel(chord: Chord, mac = isMac()): string {
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : (ARROWS[chord.key] ?? chord.key);
  if (mac) {
    return `${chord.mod ? "⌘" : ""}${chord.alt ? "⌥" : ""}${chord.shift ? "⇧" : ""}${key}`;
  }
  return [chord.mod && "Ctrl", chord.alt && "Alt", chord.shift && "Shift", key]
    .filter(Boolean)
    .join("+");
}

const ARROWS: Record<string, string> = { ArrowUp: "↑", ArrowDown: "↓", Escape: "Esc" };

/** The thread after (or before) `current` in sidebar order, wrapping around; null if none. */
export function neighbourThread(
  order: readonly string[],
  current: string | null,
  step: 1 | -1,
): string | null {
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.indexOf(current);
  if (at < 0) return order[step === 1 ? 0 : order.length - 1] ?? null;
  return order[(at + step + order.length) % order.length] ?? null;
}
