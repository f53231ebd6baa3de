"use client";
import { useState } from "react";
import { useDebug } from "../../lib/debug-mode.tsx";

/**
 * Where a raw id used to be printed: a small "id" button whose tooltip is the full id and whose
 * click copies it, so labels stay human and the id is one click away for a bug report. Only
 * with debug details on (B16).
 */
export function CopyId({ id, what }: { id: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const { debug } = useDebug();
  if (!debug) return null;
  return (
    <button
      type="button"
      className="copy-id"
      title={`${what} id ${id} (click to copy)`}
      aria-label={`Copy id ${id}`}
      data-id={id}
      onClick={() => {
        void navigator.clipboard?.writeText(id).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1_200);
        });
      }}
    >
      {copied ? "copied" : "id"}
    </button>
  );
}
