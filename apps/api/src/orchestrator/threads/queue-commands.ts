import type { RunId, ThreadId, ThreadState } from "@skein/domain";
import type { OrchestratorCommands } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  requireThread: (threadId: ThreadId) => Promise<ThreadState>;
};

type Commands = Pick<OrchestratorCommands, "editQueued" | "reorderQueue" | "withdrawQueued">;

/**
 * B20, a queue the person controls: waiting messages are edited, moved or withdrawn by events
 * on the thread's stream, so every instance (and a restart) shows and runs the same queue. A
 * message whose run started is refused (CONFLICT) by the domain; no provider work happens here,
 * the runner reads the queue as it stands when it picks the next run.
 */
export function queueCommands({ gate, repo, requireThread }: Deps): Commands {
  return {
    editQueued: (input) =>
      gate.run("thread.editQueued", input, async (command) => {
        await requireThread(input.threadId);
        const { threadId, runId, text } = input;
        const result = await repo.execute(
          { type: "EditQueuedMessage", data: { threadId, runId, text } },
          command.answer({}),
        );
        return { sequence: result.sequence };
      }),
    reorderQueue: (input) =>
      gate.run("thread.reorderQueue", input, async (command) => {
        await requireThread(input.threadId);
        const runIds = input.runIds as RunId[];
        const result = await repo.execute(
          { type: "ReorderQueue", data: { threadId: input.threadId, runIds } },
          command.answer({}),
        );
        return { sequence: result.sequence };
      }),
    withdrawQueued: (input) =>
      gate.run("thread.withdrawQueued", input, async (command) => {
        await requireThread(input.threadId);
        const result = await repo.execute(
          { type: "CancelQueuedRun", data: { threadId: input.threadId, runId: input.runId } },
          command.answer({}),
        );
        return { sequence: result.sequence };
      }),
  };
}
