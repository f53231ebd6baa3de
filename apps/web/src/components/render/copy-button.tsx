"use client";
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";

/** Copies `text` to the clipboard and says so for a moment (or says why it could not). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1_500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="small copy-button"
      aria-label={label}
      onClick={() => {
        navigator.clipboard?.writeText(text).then(
          () => setState("copied"),
          () => setState("failed"),
        ) ?? setState("failed");
      }}
    >
      {state === "copied" ? (
        <Check size={13} aria-hidden="true" />
      ) : (
        <Copy size={13} aria-hidden="true" />
      )}
      {state === "copied" ? "Copied" : state === "failed" ? "Copy blocked" : "Copy"}
    </button>
  );
}
