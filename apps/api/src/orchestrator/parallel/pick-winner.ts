import {
  NotFoundError,
  PreconditionFailedError,
  type ThreadId,
  ValidationError,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import type { OrchestratorCommands, PickWinnerAnswer, PickWinnerInput } from "@skein/contract";

type Deps = {
  repo: AggregateRepository;
  sendMessage: OrchestratorCommands["sendMessage"];
  archive: OrchestratorCommands["archive"];
};

/**
 * B9 "pick the winner": the winner comes back as "Bring back" brings it (its files squashed into
 * this workspace and its conversation sent, one `sendMessage`), then every other fork is
 * archived. Each step is a command of its own under an id derived from this one (as a fan-out
 * does), so a retry under the same id replays what is done and does only what is missing. The
 * gate runs it as a composite: once every step is done, the pick's own id answers from its own
 * receipt, and the same id with another winner, text or `others` is CONFLICT (B3).
 *
 * Everything that can refuse is asked first: the forks are checked before any step, and the
 * bring-back (which refuses a clash with nothing written, B14) comes before any archive, so a
 * refused pick changes nothing at all.
 */
export async function pickWinner(
  deps: Deps,
  command: CommandContext,
  input: PickWinnerInput,
): Promise<PickWinnerAnswer> {
  const id = command.commandId;
  if (!id) throw new Error("a pick of the winner runs under a command id");
  if (input.others.includes(input.winnerThreadId)) {
    throw new ValidationError("the winner cannot also be archived", [
      { path: "others", message: `${input.winnerThreadId} is the winner` },
    ]);
  }
  for (const forkId of [input.winnerThreadId, ...input.others]) {
    await requireForkOf(deps.repo, input.threadId, forkId);
  }
  const brought = await deps.sendMessage({
    threadId: input.threadId,
    text: input.text,
    bringBackFrom: input.winnerThreadId,
    code: "squash",
    commandId: `${id}.bring`,
  });
  const archived: ThreadId[] = [];
  let sequence = brought.sequence;
  for (const [index, forkId] of input.others.entries()) {
    const done = await archiveUnlessArchived(deps, forkId, `${id}.archive.${index}`);
    if (done === null) continue;
    archived.push(forkId);
    sequence = Math.max(sequence, done.sequence);
  }
  return { runId: brought.runId, code: brought.code ?? null, archived, sequence };
}

async function requireForkOf(repo: AggregateRepository, threadId: ThreadId, forkId: ThreadId) {
  const fork = (await repo.thread(forkId)).thread;
  if (!fork) throw new NotFoundError("thread", forkId);
  if (fork.lineage?.parentThreadId !== threadId) {
    throw new PreconditionFailedError(`thread ${forkId} is not a fork of ${threadId}`);
  }
}

/**
 * A fork the person archived themselves is left as it is (and not reported); its archive under
 * this id, already made by an earlier attempt, replays its answer.
 */
async function archiveUnlessArchived(
  deps: Deps,
  forkId: ThreadId,
  commandId: string,
): Promise<{ sequence: number } | null> {
  try {
    return await deps.archive({ threadId: forkId, commandId });
  } catch (error) {
    if (!(error instanceof PreconditionFailedError)) throw error;
    const fork = (await deps.repo.thread(forkId)).thread;
    if (fork?.archivedAt) return null;
    throw error;
  }
}
