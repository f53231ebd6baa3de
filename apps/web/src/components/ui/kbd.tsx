import { type Chord, chordLabel } from "../../lib/shortcuts.ts";

/** A shortcut as keys, e.g. in the command palette and button tooltips. */
export function Kbd({ chord }: { chord: Chord }) {
  return (
    <kbd className="rounded border border-line bg-subtle px-1.5 py-0.5 font-mono text-[11px] text-muted">
      {chordLabel(chord)}
    </kbd>
  );
}
