"use client";

/** What a bring-back from the composer takes from the fork (B9: both by default). */
export type BringBackWhat = "both" | "conversation";

/**
 * Shown while a fork is chosen: bring its conversation and its code (the files are merged into
 * this workspace first, refused untouched when they clash), or its conversation only.
 */
export function BringBackOptions({
  title,
  value,
  onChange,
  onCancel,
}: {
  title: string;
  value: BringBackWhat;
  onChange(next: BringBackWhat): void;
  onCancel(): void;
}) {
  return (
    <p className="hint bring-back-options">
      Bringing back the work of <strong>{title}</strong> with this message:{" "}
      <select
        aria-label="What to bring back"
        value={value}
        onChange={(event) => onChange(event.target.value as BringBackWhat)}
      >
        <option value="both">its conversation and its code</option>
        <option value="conversation">its conversation only (code stays on its branch)</option>
      </select>{" "}
      <button type="button" className="small" onClick={onCancel}>
        Cancel bring back
      </button>
    </p>
  );
}
