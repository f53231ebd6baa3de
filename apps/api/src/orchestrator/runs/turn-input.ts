import type { Attachment, Run, ThreadState } from "@skein/domain";
import type { TurnAttachment, TurnInput } from "@skein/domain/provider";
import type { runStart } from "@skein/transfer";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import { turnTextOf } from "./plan-context.ts";

/**
 * What a run's first turn sends: the person's words (after an accepted plan, B5), the context
 * its start settled (a handoff, T3-T8), and the message's stored files (E16).
 */
export async function firstTurnInput(
  store: AttachmentStore | null,
  state: ThreadState,
  run: Run,
  handoff: runStart.SentHandoff | null,
): Promise<TurnInput> {
  const message = state.messages.get(run.userMessageId);
  const files = await attachmentsOf(store, message?.attachments);
  return {
    text: turnTextOf(state, run, message?.text ?? ""),
    interactionMode: run.interactionMode ?? "default",
    effort: run.effort ?? null,
    context: handoff ? { handoffId: handoff.handoffId, text: handoff.text } : null,
    ...(run.compact ? { compact: true } : {}),
    ...(files ? { attachments: files } : {}),
  };
}

/** E16: the message's stored files as the adapter reads them (local paths, sniffed types). */
async function attachmentsOf(
  store: AttachmentStore | null,
  attachments: readonly Attachment[] | undefined,
): Promise<TurnAttachment[] | null> {
  if (!attachments?.length || !store) return null;
  return Promise.all(
    attachments.map(async (a) => {
      const stored = await store.get(a.ref);
      return { name: a.name, mimeType: stored.mimeType, path: stored.path };
    }),
  );
}
