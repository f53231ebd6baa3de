"use client";
import { BRING_BACK_CHOICES, type BringBackWhat } from "../../lib/bring-back-choice.ts";

export type { BringBackWhat } from "../../lib/bring-back-choice.ts";

/**
 * Shown while a fork with code of its own is chosen: bring its conversation and its code (the
 * files are merged into this workspace first, refused untouched when they clash), its
 * conversation only, or its code only. Code only needs no message: it has its own button, and the
 * composer's text stays for a message of its own.
 */
export function BringBackOptions({
  title,
  value,
  pending,
  onChange,
  onBringCode,
  onCancel,
}: {
  title: string;
  value: BringBackWhat;
  pending: boolean;
  onChange(next: BringBackWhat): void;
  onBringCode(): void;
  onCancel(): void;
}) {
  const codeOnly = value === "code";
  return (
    <p className="hint bring-back-options">
      Bringing back the work of <strong>{title}</strong>
      {codeOnly ? ": " : " with this message: "}
      <select
        aria-label="What to bring back"
        value={value}
        onChange={(event) => onChange(event.target.value as BringBackWhat)}
      >
        {BRING_BACK_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>{" "}
      {codeOnly && (
        <>
          <button type="button" className="small primary" disabled={pending} onClick={onBringCode}>
            Bring back the code
          </button>{" "}
        </>
      )}
      <button type="button" className="small" onClick={onCancel}>
        Cancel bring back
      </button>
    </p>
  );
}
