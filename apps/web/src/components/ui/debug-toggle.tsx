"use client";
import { Bug } from "lucide-react";
import { useDebug } from "../../lib/debug-mode.tsx";

/** Shows or hides the plumbing (raw frames, ids, event names); off by default. */
export function DebugToggle() {
  const { debug, setDebug } = useDebug();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Debug details"
      aria-pressed={debug}
      title={
        debug ? "Debug details: shown (click to hide)" : "Debug details: hidden (click to show)"
      }
      onClick={() => setDebug(!debug)}
    >
      <Bug size={16} aria-hidden />
    </button>
  );
}
