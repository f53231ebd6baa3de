"use client";
import { useMemo } from "react";
import { forksOf } from "../../lib/forks-of.ts";
import { useShells } from "../../lib/shells-store.tsx";

/** "Bring back from fork…": the thread's forks, any of which the next message can merge back (T8). */
export function BringBackSelect({
  threadId,
  value,
  onChange,
}: {
  threadId: string;
  value: string;
  onChange(forkThreadId: string): void;
}) {
  const { shells } = useShells();
  const forks = useMemo(() => forksOf(shells, threadId), [shells, threadId]);
  if (forks.length === 0 && value === "") return null;
  return (
    <select
      aria-label="Bring back from fork"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Bring back from fork…</option>
      {forks.map((fork) => (
        <option key={fork.id} value={fork.id}>
          {fork.title} ({fork.runCount} runs)
        </option>
      ))}
    </select>
  );
}
