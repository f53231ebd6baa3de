import { randomUUID } from "node:crypto";
import { type AgentContext, RequestError, type StopReason } from "@agentclientprotocol/sdk";
import type { RouterInputs } from "@skein/contract";
import type {
  RunId,
  RuntimeRequest,
  StoredEvent,
  ThreadId,
  UserInputQuestion,
} from "@skein/domain";
import type { SkeinClient } from "../client.ts";
import { acpErrorOf } from "./acp-errors.ts";
import { permissionAsk } from "./permission.ts";
import { type RunEnd, type RunStep, RunUpdates } from "./run-updates.ts";

/**
 * One `session/prompt`: the text goes to the thread as a message (a run), and the run's events
 * stream back as `session/update`s until it ends; its requests go to the editor as permission
 * requests. `cancel()` interrupts the run; the prompt then ends `cancelled`.
 */

export type TurnDeps = {
  api: SkeinClient;
  client: AgentContext;
  sessionId: string;
  threadId: ThreadId;
  /** Where failures that reach no caller are told (stderr). */
  warn: (line: string) => void;
};

type MessageExtras = Omit<RouterInputs["thread"]["sendMessage"], "threadId" | "text">;

export class PromptTurn {
  private cancelled = false;
  private runId: RunId | null = null;

  constructor(private readonly deps: TurnDeps) {}

  /** Sends `text` and follows its run to the end. */
  async run(text: string, extras: MessageExtras = {}): Promise<StopReason> {
    const { api, threadId } = this.deps;
    // The watch resumes from here, so no event of the run can be missed, however late it attaches.
    const { snapshotSequence } = await api.thread.detail
      .query({ threadId, window: { limit: 1 } })
      .catch(acpErrorOf);
    if (this.cancelled) return "cancelled";
    const { runId } = await api.thread.sendMessage
      .mutate({ threadId, text, ...extras, commandId: `cmd_acp_${randomUUID()}` })
      .catch(acpErrorOf);
    this.runId = runId;
    if (this.cancelled) await this.interrupt();
    const end = await this.follow(runId, snapshotSequence);
    if (end.status === "completed") return "end_turn";
    if (this.cancelled || end.status !== "failed") return "cancelled";
    throw RequestError.internalError(
      { runId },
      `the run failed: ${end.error ?? "no reason given"}`,
    );
  }

  /** `session/cancel`: the run is interrupted; `run()` then answers `cancelled`. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    if (this.runId !== null) await this.interrupt();
  }

  private async interrupt(): Promise<void> {
    await this.deps.api.thread.interrupt
      .mutate({ threadId: this.deps.threadId })
      .catch((error: unknown) => this.deps.warn(`interrupt failed: ${String(error)}`));
  }

  private follow(runId: RunId, cursor: number): Promise<RunEnd> {
    const updates = new RunUpdates(runId);
    return new Promise<RunEnd>((resolve, reject) => {
      // Updates go out in the order the events came; each waits for the one before.
      let chain = Promise.resolve();
      const subscription = this.deps.api.events.watch.subscribe(
        { threadId: this.deps.threadId, lastEventId: String(cursor) },
        {
          onData: ({ data }) => {
            if (data.type !== "event") return;
            const event = data.event as StoredEvent;
            chain = chain
              .then(() => this.deliver(updates.apply(event)))
              .then((end) => {
                if (end === null) return;
                subscription.unsubscribe();
                resolve(end);
              }, reject);
          },
          onError: (error) => {
            subscription.unsubscribe();
            reject(
              RequestError.internalError(undefined, `lost Skein's event stream: ${String(error)}`),
            );
          },
        },
      );
    });
  }

  private async deliver(step: RunStep): Promise<RunEnd | null> {
    const { client, sessionId } = this.deps;
    for (const update of step.updates) {
      await client.notify("session/update", { sessionId, update });
    }
    // Asked on the side: the run's other updates keep flowing while the editor decides.
    if (step.request) void this.ask(step.request.request, step.request.questions);
    return step.end;
  }

  private async ask(
    request: RuntimeRequest,
    questions: readonly UserInputQuestion[],
  ): Promise<void> {
    const { api, client, sessionId, warn } = this.deps;
    const ask = permissionAsk(sessionId, request, questions);
    try {
      const answer = ask
        ? ask.answer(await client.request("session/request_permission", ask.params))
        : { decision: "decline" as const };
      await api.request.respond.mutate({
        requestId: request.id,
        ...answer,
        commandId: `cmd_acp_${randomUUID()}`,
      });
    } catch (error) {
      // Answered elsewhere meanwhile (the web UI), or the run ended: nothing left to do.
      warn(`request ${request.id}: ${String(error)}`);
    }
  }
}
