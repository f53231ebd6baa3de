import {
  PreconditionFailedError,
  type ProviderKind,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import type { CommandContext } from "../commands/command-gate.ts";
import type { FanOutAnswer, FanOutFork, FanOutInput, OrchestratorCommands } from "@skein/contract";

type Deps = {
  forkThread: OrchestratorCommands["forkThread"];
  /** `sendMessage`, with a newly queued run handed to `dispatch` instead of started at once. */
  queueMessage: (
    input: Parameters<OrchestratorCommands["sendMessage"]>[0],
    dispatch: (threadId: ThreadId, runId: RunId) => void,
  ) => Promise<{ runId: RunId; sequence: number }>;
  dispatch: (threadId: ThreadId, runId: RunId) => void;
  configured: (provider: ProviderKind) => boolean;
  /** B16: the number the first fork gets; its siblings count on from it. */
  firstSibling: () => Promise<number>;
};

/**
 * B9 fan-out: N isolated forks of the latest stable point, the same message queued on each.
 * Each step is a command of its own under an id derived from the fan-out's, so a retry of the
 * fan-out (same id) replays the forks and messages already made and makes only the missing ones:
 * never a second fork for one target. Runs go to the slots as their messages are queued. The
 * gate runs it as a composite: once all are made, the fan-out's own id answers from its own
 * receipt, and the same id with other targets or text is CONFLICT (B3), not a replayed subset.
 */
export async function fanOut(
  deps: Deps,
  command: CommandContext,
  input: FanOutInput,
): Promise<FanOutAnswer> {
  const missing = [...new Set(input.targets.map((t) => t.provider))].filter(
    (provider) => !deps.configured(provider),
  );
  if (missing.length > 0) {
    throw new PreconditionFailedError(`no runtime is configured for ${missing.join(", ")}`);
  }
  const id = command.commandId;
  if (!id) throw new Error("a fan-out runs under a command id");
  // Worktrees are checked out side by side (git locks per worktree and per branch); the messages
  // are then queued in target order, so runs start in that order as slots free up.
  // The domain titles each fork ("fork of Main at run 3 (2)"): counted once, numbered apart.
  const first = await deps.firstSibling();
  const made = await Promise.all(
    input.targets.map((_target, index) => {
      return deps.forkThread({
        threadId: input.threadId,
        sourcePoint: { type: "latest_stable" },
        sibling: first + index,
        isolatedWorkspace: true,
        ...(input.agentName ? { agentName: input.agentName } : {}),
        commandId: `${id}.fork.${index}`,
      });
    }),
  );
  const forks: FanOutFork[] = [];
  let sequence = 0;
  for (const [index, target] of input.targets.entries()) {
    const fork = made[index]!;
    const queued = await deps.queueMessage(
      {
        threadId: fork.threadId,
        text: input.text,
        provider: target.provider,
        ...(target.model !== undefined ? { model: target.model } : {}),
        ...(target.effort !== undefined ? { effort: target.effort } : {}),
        commandId: `${id}.send.${index}`,
      },
      deps.dispatch,
    );
    forks.push({ threadId: fork.threadId, provider: target.provider, model: target.model ?? null });
    sequence = Math.max(sequence, fork.sequence, queued.sequence);
  }
  return { forks, sequence };
}
