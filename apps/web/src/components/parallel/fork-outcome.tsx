"use client";
import type { ForkSummary } from "../../lib/types.ts";
import { ActionError } from "../common/action-error.tsx";
import { BringBackConflict } from "./bring-back-conflict.tsx";
import type { ForkActions } from "./use-fork-actions.ts";

const filesApplied = (files: number) =>
  files > 0 ? `${files} file${files === 1 ? "" : "s"} applied and ` : "";

/**
 * What the last bring-back or pick did, in words: what came back and what was archived, or the
 * clash that refused it with nothing changed (and the offer to hand it to the agent).
 */
export function ForkOutcome({
  actions,
  titles,
  forks,
}: {
  actions: ForkActions;
  /** Titles by fork id, including forks the pick just archived (gone from `forks`). */
  titles: ReadonlyMap<string, string>;
  forks: readonly ForkSummary[];
}) {
  const { outcome, busy } = actions;
  if (!outcome) return null;
  const title = titles.get(outcome.forkId) ?? "the fork";
  switch (outcome.kind) {
    case "conflict": {
      const fork = forks.find((f) => f.threadId === outcome.forkId);
      return (
        <BringBackConflict title={title} files={outcome.files}>
          {fork?.branch && (
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void actions.handToAgent(fork, outcome.files)}
            >
              Hand to the agent to merge
            </button>
          )}
        </BringBackConflict>
      );
    }
    case "handed":
      return (
        <p className="notice" role="status">
          Asked this thread's agent to merge {title}; follow it in the conversation.
        </p>
      );
    case "brought":
      return (
        <p className="notice" role="status">
          Brought back {title}: {filesApplied(outcome.files)}its conversation sent. Rolling back to
          the checkpoint before it undoes both.
        </p>
      );
    case "picked":
      return (
        <p className="notice pick-outcome" role="status">
          Picked {title} as the winner: {filesApplied(outcome.files)}its conversation sent.{" "}
          {outcome.archived.length === 0
            ? "No other fork was left to archive."
            : `Archived ${outcome.archived.map((id) => titles.get(id) ?? id).join(", ")}.`}
        </p>
      );
    case "failed":
      return (
        <ActionError
          error={outcome.failure}
          prefix={outcome.picking ? "Picking the winner failed." : "Bring back failed."}
        />
      );
  }
}
