import {
  type CommandId,
  decide,
  type IdSource,
  isDomainError,
  type MessageId,
  NotFoundError,
  type ProviderKind,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import type { ProviderAdapter, ProviderModel } from "@skein/domain/provider";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import { resolveAttachments } from "../../attachments/resolve-attachments.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { applyCodePlan, broughtBack, rollBackCodePlan } from "../parallel/bring-back-apply.ts";
import { type CodePlan, planBringBack } from "../parallel/bring-back-code.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import { attachReviewedHandoff } from "../transfers/handoff-draft.ts";
import { checkModelChoice } from "./model-choice.ts";
import type { CodeBroughtBack, OrchestratorCommands } from "@skein/contract";

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  ids: IdSource;
  now: () => Date;
  checkpoints: CheckpointService;
  attachments: AttachmentStore;
  adapter: (provider: ProviderKind) => ProviderAdapter | undefined;
  /** B15: refuses (PRECONDITION_FAILED, in words) a provider that is not ready. */
  requireReady?: (provider: ProviderKind) => Promise<void>;
  catalog: (provider: ProviderKind) => Promise<ProviderModel[]>;
  handoffDeps: Parameters<typeof attachReviewedHandoff>[0];
  /** Tests only: runs between a bring-back's files and its append (a crash is thrown here). */
  afterBringBackFiles?: () => Promise<void> | void;
};

/** A bring-back with code records this before its first file is written (B3). */
type BringBackIntent = { runId: RunId; messageId: MessageId; code: CodePlan };

type SendInput = Parameters<OrchestratorCommands["sendMessage"]>[0];
export type SendAnswer = { runId: RunId; sequence: number; code?: CodeBroughtBack };

/**
 * `thread.sendMessage`: records the run and hands it to `dispatch` (started at once, or paced by
 * a fan-out's slots). A bring-back with `code` first merges the fork's files into the workspace
 * (B9): refused with nothing changed, or applied just before the run that carries the
 * conversation delta is recorded, so code and conversation arrive in one command.
 *
 * Between the files and the append a crash can fall: the plan (trees, commits, run id) is the
 * command's intent, recorded before the first write. A retry, or the restart's resume, finds it
 * and finishes: the files go to the planned tree again (nothing already there is rewritten) and
 * the same run is appended. Should the append be refused instead, the files are rolled back, so
 * the workspace never holds code the log does not.
 */
export function createQueueMessage(deps: Deps) {
  const { gate, repo, ids, checkpoints } = deps;
  return (input: SendInput, dispatch: (threadId: ThreadId, runId: RunId) => void) => {
    const mode = input.bringBackFrom && input.code && input.code !== "none" ? input.code : null;
    return gate.run(
      "thread.sendMessage",
      input,
      async (command): Promise<SendAnswer> => {
        const state = await repo.thread(input.threadId);
        if (!state.thread) throw new NotFoundError("thread", input.threadId);
        const thread = state.thread;
        const provider = input.provider ?? thread.defaultProvider;
        const onDefault = provider === thread.defaultProvider;
        const model = input.model ?? (onDefault ? thread.modelSelection.model : null);
        if (input.model !== undefined || input.effort !== undefined) {
          const effort =
            input.effort !== undefined
              ? input.effort
              : onDefault
                ? (thread.modelSelection.effort ?? null)
                : null;
          await checkModelChoice(deps.catalog, { provider, model, effort });
        }
        if (input.bringBackFrom)
          await checkpoints.settleLatestRun(await repo.thread(input.bringBackFrom));
        const attachments = input.attachments?.length
          ? await resolveAttachments(
              deps.attachments,
              provider,
              deps.adapter(provider),
              input.attachments,
            )
          : undefined;
        const recorded = mode ? await command.recorded<BringBackIntent>() : undefined;
        // A recorded bring-back already wrote its files: it finishes whatever the provider's state.
        if (!recorded) await deps.requireReady?.(provider);
        const runId = recorded?.runId ?? ids.next("run");
        const messageId = recorded?.messageId ?? ids.next("message");
        const queue = {
          type: "QueueRun" as const,
          data: {
            threadId: input.threadId,
            runId,
            messageId,
            text: input.text,
            ...(attachments ? { attachments } : {}),
            provider,
            model,
            ...(input.effort !== undefined ? { effort: input.effort } : {}),
            ...(input.interactionMode ? { interactionMode: input.interactionMode } : {}),
            ...(input.sourcePlanRef ? { sourcePlanRef: input.sourcePlanRef } : {}),
            ...(input.bringBackFrom ? { bringBackFrom: input.bringBackFrom } : {}),
          },
        };
        let plan: CodePlan | undefined;
        if (mode && input.bringBackFrom) {
          // The thread's own last run must have its checkpoint: it is the merge's undo point.
          await checkpoints.settleLatestRun(state);
          // Read again: the wait above may have recorded the checkpoint the merge is undone to.
          const target = await repo.thread(input.threadId);
          const precheck = () => {
            const meta = {
              commandId: ids.next("command") as CommandId,
              at: deps.now().toISOString(),
              ids,
            };
            const check = decide(queue, target, meta, { readThread: (id) => repo.peekThread(id) });
            if (!check.ok) throw check.error;
          };
          if (recorded) {
            plan = recorded.code;
            await refusedRollsBack(deps, plan, precheck);
          } else {
            const planned = await planBringBack(deps, target, input.bringBackFrom, mode, runId);
            precheck();
            plan = (await command.intend<BringBackIntent>({ runId, messageId, code: planned }))
              .code;
          }
          await applyCodePlan(deps, plan);
        }
        const code: CodeBroughtBack | undefined = plan ? broughtBack(plan) : undefined;
        const result = await refusedRollsBack(deps, plan, async () => {
          if (plan) await deps.afterBringBackFiles?.();
          return repo.execute(queue, command.answer({ runId, ...(code ? { code } : {}) }));
        });
        // Recorded before the run is dispatched, so its start finds the person's text.
        if (!result.duplicate && input.handoffText !== undefined) {
          await attachReviewedHandoff(deps.handoffDeps, input.threadId, runId, input.handoffText);
        }
        if (!result.duplicate) dispatch(input.threadId, runId);
        return { ...(result.receipt as Omit<SendAnswer, "sequence">), sequence: result.sequence };
      },
      { effects: mode !== null },
    );
  };
}

/** A refusal after the plan was recorded takes its files back out before it ends the command. */
async function refusedRollsBack<T>(
  deps: Pick<Deps, "checkpoints">,
  plan: CodePlan | undefined,
  step: () => T | Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (plan && isDomainError(error)) await rollBackCodePlan(deps, plan);
    throw error;
  }
}
