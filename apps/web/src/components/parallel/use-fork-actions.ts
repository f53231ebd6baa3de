"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { type ApiFailure, describeError } from "../../lib/errors.ts";
import type { ForkSummary } from "../../lib/types.ts";
import { conflictFiles, handToAgentText } from "./bring-back-conflict.tsx";

export type Outcome =
  | { kind: "brought"; forkId: string; files: number }
  | { kind: "picked"; forkId: string; files: number; archived: string[] }
  | { kind: "handed"; forkId: string }
  | { kind: "conflict"; forkId: string; files: string[] }
  | { kind: "failed"; forkId: string; failure: ApiFailure; picking: boolean };

/** A refused bring-back or pick: a clash named file by file, or any other failure in words. */
function failureOf(forkId: string, error: unknown, picking: boolean): Outcome {
  const files = conflictFiles(error);
  return files
    ? { kind: "conflict", forkId, files }
    : { kind: "failed", forkId, failure: describeError(error), picking };
}

export type ForkActions = {
  /** The fork an action is under way for. */
  busy: string | null;
  outcome: Outcome | null;
  bringBack(fork: ForkSummary): Promise<void>;
  handToAgent(fork: ForkSummary, files: string[]): Promise<void>;
  /** B9: bring `winner` back and archive `others`, one command (`thread.pickWinner`). */
  pickWinner(winner: ForkSummary, others: readonly ForkSummary[]): Promise<void>;
};

/**
 * B9: what the comparison's buttons do to this thread. Each ends in an outcome the view shows:
 * what came back, what was archived, or why nothing was changed.
 */
export function useForkActions(threadId: string, refresh: () => void): ForkActions {
  const client = useApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const act = async (forkId: string, body: () => Promise<Outcome>, picking = false) => {
    setBusy(forkId);
    setOutcome(null);
    try {
      setOutcome(await body());
      refresh();
    } catch (error) {
      setOutcome(failureOf(forkId, error, picking));
    } finally {
      setBusy(null);
    }
  };

  return {
    busy,
    outcome,
    bringBack: (fork) =>
      act(fork.threadId, async () => {
        const answer = await client.thread.sendMessage.mutate({
          threadId: threadId as never,
          text: `I brought back the work of "${fork.title}". Check it and carry on.`,
          bringBackFrom: fork.threadId,
          code: "squash",
        });
        const files = "code" in answer && answer.code ? answer.code.files.length : 0;
        return { kind: "brought", forkId: fork.threadId, files };
      }),
    // The clash goes to this thread's agent: the fork's conversation comes back, its files stay
    // on its branch, and the agent is asked to merge that branch here and resolve the conflicts.
    handToAgent: (fork, files) =>
      act(fork.threadId, async () => {
        await client.thread.sendMessage.mutate({
          threadId: threadId as never,
          text: handToAgentText(fork.title, fork.branch ?? "", files),
          bringBackFrom: fork.threadId,
          code: "none",
        });
        return { kind: "handed", forkId: fork.threadId };
      }),
    pickWinner: (winner, others) =>
      act(
        winner.threadId,
        async () => {
          const answer = await client.thread.pickWinner.mutate({
            threadId: threadId as never,
            winnerThreadId: winner.threadId,
            others: others.map((fork) => fork.threadId),
            text: `I picked "${winner.title}" as the winner and brought its work back. Check it and carry on.`,
          });
          return {
            kind: "picked",
            forkId: winner.threadId,
            files: answer.code?.files.length ?? 0,
            archived: answer.archived,
          };
        },
        true,
      ),
  };
}
