import type { OrchestratorCommands } from "@skein/contract";
import type { EventStore } from "@skein/db";
import {
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type ProviderKind,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import type { RuntimeForwarder } from "../runtime/runtime-forwarding.ts";
import { compactionRefusal } from "../transfers/skein-compaction.ts";
import type { RunExecutor } from "./run-executor.ts";

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  store: EventStore;
  ids: IdSource;
  runtime: RuntimeForwarder;
  executor: RunExecutor;
  requireThread: (threadId: ThreadId) => Promise<ThreadState>;
  /** P6: the provider compacts its own context; else Skein writes the compaction (issue 25). */
  compactsNatively: (provider: ProviderKind) => boolean;
};

type Commands = Pick<
  OrchestratorCommands,
  "compact" | "retryRun" | "steer" | "interrupt" | "respondToRequest"
>;

/**
 * What a person does to a thread's runs besides sending a message: compact, retry the latest
 * run (E4), steer or interrupt the running one (R1), answer its request (E15). Steering,
 * interrupting and answering reach the instance whose runtime runs the thread.
 */
export function runCommands(deps: Deps): Commands {
  const { gate, repo, store, ids, runtime, executor, requireThread, compactsNatively } = deps;
  return {
    compact: (input) =>
      gate.run("thread.compact", input, async (command) => {
        const state = await requireThread(input.threadId);
        // The context to compact is held by the provider of the latest run.
        const latestRunId = state.runOrder.at(-1);
        const latest = latestRunId ? state.runs.get(latestRunId) : undefined;
        const provider = latest?.provider ?? state.thread!.defaultProvider;
        // Skein's compaction refuses before anything is queued when it has nothing to compact.
        const refused = compactsNatively(provider) ? null : compactionRefusal(state, provider);
        if (refused && latest) throw new PreconditionFailedError(refused);
        const runId = ids.next("run");
        const result = await repo.execute(
          {
            type: "QueueRun",
            data: {
              threadId: input.threadId,
              runId,
              messageId: ids.next("message"),
              text: "/compact",
              provider,
              model: latest?.model ?? null,
              compact: true,
            },
          },
          command.answer({ runId }),
        );
        if (!result.duplicate) executor.kick(input.threadId);
        return { ...(result.receipt as { runId: typeof runId }), sequence: result.sequence };
      }),
    retryRun: (input) =>
      gate.run("thread.retryRun", input, async (command) => {
        await requireThread(input.threadId);
        const result = await repo.execute(
          { type: "RetryRun", data: { threadId: input.threadId, runId: input.runId } },
          command.answer({ runId: input.runId }),
        );
        if (!result.duplicate) executor.retried(input.threadId);
        return { runId: input.runId, sequence: result.sequence };
      }),
    steer: (input, origin) =>
      gate.run("thread.steer", input, async (command) => {
        await requireThread(input.threadId);
        return runtime.run(
          input.threadId,
          origin,
          async () => ({
            sequence: await executor.steer(input.threadId, input.text, command.answer({})),
          }),
          (remote, address, signal) => remote.steer(address, input, signal),
        );
      }),
    interrupt: (input, origin) =>
      gate.run("thread.interrupt", input, async (command) => {
        await requireThread(input.threadId);
        return runtime.run(
          input.threadId,
          origin,
          async () => ({
            sequence: await executor.interrupt(input.threadId, command.answer({})),
          }),
          (remote, address, signal) => remote.interrupt(address, input, signal),
        );
      }),
    respondToRequest: (input, origin) =>
      gate.run("request.respond", input, async (command) => {
        const { data } = await store.snapshot((q) => q.get("requests", input.requestId));
        if (!data?.threadId) throw new NotFoundError("request", input.requestId);
        const threadId = data.threadId as ThreadId;
        return runtime.run(
          threadId,
          origin,
          async () => ({
            sequence: await executor.respond(
              input.requestId,
              threadId,
              {
                decision: input.decision,
                ...(input.answers ? { answers: input.answers } : {}),
              },
              command.answer({}),
            ),
          }),
          (remote, address, signal) => remote.respondToRequest(address, input, signal),
        );
      }),
  };
}
