import type { CommandData } from "../commands.ts";
import { ConflictError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import { initialThreadState, type ThreadState } from "../state/thread-state.ts";
import { completeItem, startItem } from "./items.ts";
import { createThread } from "./lifecycle.ts";
import { completeProviderTurn, recordProviderThread, startProviderTurn } from "./provider.ts";
import { queueRun, startRun } from "./runs.ts";

/** Stands in for a native turn that carried no typed message (a run needs a user message). */
export const ADOPTED_TURN_WITHOUT_TEXT = "(a turn without a typed message)";

/** Titles are names (at most 200 characters, no NUL); a provider's may be a long first prompt. */
const TITLE_MAX = 200;

/** The app thread's title for an adopted session: the first line of the provider's title. */
export function adoptedThreadTitle(providerTitle: string): string {
  const line =
    providerTitle
      .replaceAll("\0", "")
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  // Cut by code points, so a surrogate pair is never split.
  const title = Array.from(line).slice(0, TITLE_MAX).join("").trim();
  return title || "Adopted session";
}

/**
 * B6/E9: the thread, its provider thread bound to the native ref, and one completed run per
 * native turn (marked `imported`), each with its user message and the assistant's answer. The
 * events are the ones the same history would have produced had Skein run it, made by the same
 * deciders against the state as it grows, so every projection and rule (coverage, fork points,
 * provider switches) treats the thread like any other. All of it lands in one append.
 */
export function adoptThread(
  d: CommandData<"AdoptThread">,
  s: ThreadState,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  if (s.thread) throw new ConflictError(`thread ${d.threadId} already exists`);
  // `s` is the empty state of a new stream; a scratch copy grows with each decided step.
  const state = initialThreadState();
  const out: ThreadEvent[] = [];
  const apply = (events: ThreadEvent[]) => {
    for (const event of events) {
      evolveThread(state, event);
      out.push(event);
    }
  };
  const threadId = d.threadId;
  apply(
    createThread(
      { threadId, projectId: d.projectId, title: d.title, defaultProvider: d.provider },
      state,
      meta,
      ctx,
    ),
  );
  apply(
    recordProviderThread(
      {
        threadId,
        providerThreadId: d.providerThreadId,
        provider: d.provider,
        providerSessionId: null,
        nativeThreadRef: d.nativeThreadRef,
        // Not loaded in any runtime: the next run resumes it from this ref.
        status: "not_loaded",
      },
      state,
      meta,
    ),
  );
  for (const turn of d.turns) {
    const runId = meta.ids.next("run");
    const queued = queueRun(
      {
        threadId,
        runId,
        messageId: meta.ids.next("message"),
        text: turn.userText.trim() ? turn.userText : ADOPTED_TURN_WITHOUT_TEXT,
        provider: d.provider,
      },
      state,
      meta,
      ctx,
    );
    apply(queued.map(markImported));
    apply(
      startRun(
        {
          threadId,
          runId,
          attemptId: meta.ids.next("attempt"),
          rootNodeId: meta.ids.next("node"),
          providerThreadId: d.providerThreadId,
        },
        state,
        meta,
      ),
    );
    const providerTurnId = meta.ids.next("providerTurn");
    apply(
      startProviderTurn(
        { threadId, runId, providerTurnId, nativeTurnRef: turn.nativeTurnRef },
        state,
        meta,
      ),
    );
    if (turn.assistantText) {
      const content = { type: "assistant_message" as const, text: turn.assistantText };
      const nodeId = meta.ids.next("node");
      apply(
        startItem(
          { threadId, providerTurnId, nodeId, kind: "assistant_message", content },
          state,
          meta,
        ),
      );
      apply(completeItem({ threadId, nodeId, status: "completed", content }, state, meta));
    }
    apply(completeProviderTurn({ threadId, providerTurnId, status: "completed" }, state, meta));
  }
  return out;
}

function markImported(event: ThreadEvent): ThreadEvent {
  if (event.type !== "RunQueued") return event;
  return { ...event, data: { ...event.data, run: { ...event.data.run, imported: true } } };
}
