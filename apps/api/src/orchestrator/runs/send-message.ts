import {
  type CommandId,
  decide,
  type IdSource,
  NotFoundError,
  type ProviderKind,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import type { ProviderAdapter, ProviderModel } from "@skein/domain/provider";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import { resolveAttachments } from "../../attachments/resolve-attachments.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { bringBackCode } from "../parallel/bring-back-code.ts";
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
  catalog: (provider: ProviderKind) => Promise<ProviderModel[]>;
  handoffDeps: Parameters<typeof attachReviewedHandoff>[0];
};

type SendInput = Parameters<OrchestratorCommands["sendMessage"]>[0];
export type SendAnswer = { runId: RunId; sequence: number; code?: CodeBroughtBack };

/**
 * `thread.sendMessage`: records the run and hands it to `dispatch` (started at once, or paced by
 * a fan-out's slots). A bring-back with `code` first merges the fork's files into the workspace
 * (B9): refused with nothing changed, or applied just before the run that carries the
 * conversation delta is recorded, so code and conversation arrive in one command.
 */
export function createQueueMessage(deps: Deps) {
  const { gate, repo, ids, checkpoints } = deps;
  return (input: SendInput, dispatch: (threadId: ThreadId, runId: RunId) => void) =>
    gate.run("thread.sendMessage", input, async (command): Promise<SendAnswer> => {
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
      const runId = ids.next("run");
      const queue = {
        type: "QueueRun" as const,
        data: {
          threadId: input.threadId,
          runId,
          messageId: ids.next("message"),
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
      let code: CodeBroughtBack | undefined;
      if (input.bringBackFrom && input.code && input.code !== "none") {
        // The thread's own last run must have its checkpoint: it is the merge's undo point.
        await checkpoints.settleLatestRun(state);
        // Read again: the wait above may have recorded the checkpoint the merge is undone to.
        const target = await repo.thread(input.threadId);
        code = await bringBackCode(deps, target, input.bringBackFrom, input.code, () => {
          const meta = {
            commandId: ids.next("command") as CommandId,
            at: deps.now().toISOString(),
            ids,
          };
          const check = decide(queue, target, meta, { readThread: (id) => repo.peekThread(id) });
          if (!check.ok) throw check.error;
        });
      }
      const result = await repo.execute(
        queue,
        command.answer({ runId, ...(code ? { code } : {}) }),
      );
      // Recorded before the run is dispatched, so its start finds the person's text.
      if (!result.duplicate && input.handoffText !== undefined) {
        await attachReviewedHandoff(deps.handoffDeps, input.threadId, runId, input.handoffText);
      }
      if (!result.duplicate) dispatch(input.threadId, runId);
      return { ...(result.receipt as Omit<SendAnswer, "sequence">), sequence: result.sequence };
    });
}
