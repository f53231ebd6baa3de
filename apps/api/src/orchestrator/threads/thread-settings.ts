import type { ProviderKind, ThreadId, ThreadState } from "@skein/domain";
import { ValidationError } from "@skein/domain";
import type { ProviderModel } from "@skein/domain/provider";
import type { EventStore } from "@skein/db";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { EffectClaims } from "../commands/effect-claims.ts";
import { reclaimPort } from "../workspaces/thread-ports.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import type { Logger } from "../logger.ts";
import { checkModelChoice } from "../runs/model-choice.ts";
import type { RunExecutor } from "../runs/run-executor.ts";
import type { RuntimeForwarder } from "../runtime/runtime-forwarding.ts";
import type { OrchestratorCommands } from "@skein/contract";

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  runtime: RuntimeForwarder;
  executor: RunExecutor;
  log: Logger;
  requireThread: (threadId: ThreadId) => Promise<ThreadState>;
  /** The provider's model catalog, to refuse a model or effort it does not offer. */
  catalog: (provider: ProviderKind) => Promise<ProviderModel[]>;
  store: EventStore;
  claims: EffectClaims;
  /** Issue 32: the thread's usage-limit setting changed (its waiting resume is planned again). */
  usageLimitChanged?: (threadId: ThreadId) => void;
};

type Commands = Pick<OrchestratorCommands, "updateSettings" | "archive" | "unarchive" | "promote">;

/** Rename, defaults, archive, unarchive and promote: the thread's own settings, no provider work. */
export function threadSettingsCommands(deps: Deps): Commands {
  const { gate, repo, runtime, executor, log, requireThread, catalog } = deps;

  /**
   * Archiving stops the thread's work: the domain cancels its queued runs with the archive, and
   * an active run is interrupted here (only its runtime can stop it). A failed interrupt leaves
   * the archive in place and is logged; the run can still be interrupted from the thread.
   */
  const interruptActiveRun = async (threadId: ThreadId) => {
    const state = await repo.thread(threadId);
    if (!state.activeRunId) return;
    try {
      await runtime.run(
        threadId,
        undefined,
        async () => ({ sequence: await executor.interrupt(threadId) }),
        (remote, address, signal) => remote.interrupt(address, { threadId }, signal),
      );
    } catch (error) {
      log.warn({ err: error, threadId }, "archived thread's active run could not be interrupted");
    }
  };

  return {
    updateSettings: (input) =>
      gate.run("thread.updateSettings", input, async (command) => {
        const { threadId, title, defaultProvider, model, effort, runtimeMode, interactionMode } =
          input;
        const { autoFeedback, onUsageLimit } = input;
        if (
          title === undefined &&
          defaultProvider === undefined &&
          model === undefined &&
          effort === undefined &&
          runtimeMode === undefined &&
          interactionMode === undefined &&
          autoFeedback === undefined &&
          onUsageLimit === undefined
        ) {
          throw new ValidationError(
            "nothing to change: give a title, defaultProvider, model, effort, runtimeMode, interactionMode, autoFeedback or onUsageLimit",
          );
        }
        const thread = (await requireThread(threadId)).thread!;
        // Model and effort are one selection: changing one keeps the other as it was.
        const selection =
          model !== undefined || effort !== undefined
            ? {
                model: model !== undefined ? model : thread.modelSelection.model,
                effort: effort !== undefined ? effort : (thread.modelSelection.effort ?? null),
              }
            : null;
        if (selection) {
          await checkModelChoice(catalog, {
            provider: defaultProvider ?? thread.defaultProvider,
            ...selection,
          });
        }
        const result = await repo.execute(
          {
            type: "UpdateThreadSettings",
            data: {
              threadId,
              ...(title !== undefined ? { title } : {}),
              ...(defaultProvider !== undefined ? { defaultProvider } : {}),
              ...(selection ? { modelSelection: selection } : {}),
              ...(runtimeMode !== undefined ? { runtimeMode } : {}),
              ...(interactionMode !== undefined ? { interactionMode } : {}),
              ...(autoFeedback !== undefined ? { autoFeedback } : {}),
              ...(onUsageLimit !== undefined ? { onUsageLimit } : {}),
            },
          },
          command.answer({}),
        );
        // Issue 32: a waiting resume is planned or dropped with the new setting.
        if (onUsageLimit !== undefined) deps.usageLimitChanged?.(threadId);
        return { sequence: result.sequence };
      }),
    archive: (input) =>
      gate.run("thread.archive", input, async (command) => {
        await requireThread(input.threadId);
        const result = await repo.execute(
          { type: "ArchiveThread", data: { threadId: input.threadId } },
          command.answer({}),
        );
        await interruptActiveRun(input.threadId);
        return { sequence: result.sequence };
      }),
    unarchive: (input) =>
      gate.run("thread.unarchive", input, async (command) => {
        await requireThread(input.threadId);
        const result = await repo.execute(
          { type: "UnarchiveThread", data: { threadId: input.threadId } },
          command.answer({}),
        );
        // Issue 26: its PORT was free for others while it was archived.
        await reclaimPort(deps, input.threadId);
        return { sequence: result.sequence };
      }),
    // The parent's interrupt and its sub-agent's later turns find their child threads by lineage
    // and by the parent's log; a promoted thread is in neither, so nothing here needs telling.
    promote: (input) =>
      gate.run("thread.promote", input, async (command) => {
        await requireThread(input.threadId);
        const result = await repo.execute(
          { type: "PromoteThread", data: { threadId: input.threadId } },
          command.answer({}),
        );
        return { sequence: result.sequence };
      }),
  };
}
