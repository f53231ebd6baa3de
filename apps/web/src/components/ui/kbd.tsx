import { type Chord, chordLabel } from "../../lib/shortcuts.ts";

/** A shortcut as keys, e.g. in the command palette and button tooltips. */
export function Kbd({ chord }: { chord: Chord }) {
  return <kbd className="kbd">{chordLabel(chord)}</kbd>;
}
