"use client";
import { useCallback, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { writeCheckCommand } from "../../lib/check-command-memory.ts";
import { useAction } from "../../lib/use-action.ts";
import type { ForkSummary } from "../../lib/types.ts";

export type CheckResult = NonNullable<ForkSummary["check"]>;

export type ForkChecks = {
  /** Per fork id: its last check's result (kept across the comparison's refreshes). */
  results: ReadonlyMap<string, CheckResult>;
  running: boolean;
  failure: ReturnType<typeof useAction>["failure"];
  run(command: string, forkIds: readonly string[]): void;
};

/**
 * B9: the check command runs in every fork's worktree only when the person asks (it may take
 * minutes: never on the comparison's refresh). Results stay until the next run; the command is
 * remembered for the project.
 */
export function useForkChecks(projectId: string | null): ForkChecks {
  const client = useApi();
  const action = useAction();
  const [results, setResults] = useState<ReadonlyMap<string, CheckResult>>(new Map());
  const run = useCallback(
    (command: string, forkIds: readonly string[]) => {
      const checkCommand = command.trim();
      if (checkCommand === "" || forkIds.length === 0) return;
      if (projectId) writeCheckCommand(projectId, checkCommand);
      void action
        .run(() => client.thread.compare.query({ threadIds: forkIds as never, checkCommand }))
        .then((answer) => {
          if (!answer) return;
          setResults(
            new Map(
              answer.forks.flatMap((fork) => (fork.check ? [[fork.threadId, fork.check]] : [])),
            ),
          );
        });
    },
    [client, action.run, projectId],
  );
  return { results, running: action.pending, failure: action.failure, run };
}
