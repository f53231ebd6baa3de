import { RequestError, type SessionUpdate, type StopReason } from "@agentclientprotocol/sdk";
import { ProviderKind, ThreadId } from "@skein/domain";
import { acpErrorOf } from "./acp-errors.ts";
import { PromptTurn, type TurnDeps } from "./prompt-turn.ts";
import { parseSlash, type SlashCommand } from "./slash-commands.ts";
import { textChunk } from "./item-updates.ts";

/**
 * One ACP session: a Skein thread (the session id is the thread id). A prompt is a message to
 * the thread, or one of Skein's slash commands; one prompt runs at a time.
 */
export class AcpSession {
  private turn: PromptTurn | null = null;

  constructor(private readonly deps: TurnDeps & { providers: () => Promise<string[]> }) {}

  get threadId(): ThreadId {
    return this.deps.threadId;
  }

  async prompt(text: string): Promise<StopReason> {
    if (this.turn !== null) {
      throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    }
    const command = parseSlash(text);
    const turn = new PromptTurn(this.deps);
    this.turn = turn;
    try {
      if (command === null) return await turn.run(text);
      return await this.command(command, turn);
    } finally {
      this.turn = null;
    }
  }

  async cancel(): Promise<void> {
    await this.turn?.cancel();
  }

  private async command(command: SlashCommand, turn: PromptTurn): Promise<StopReason> {
    const { api, threadId } = this.deps;
    switch (command.name) {
      case "fork": {
        const fork = await api.thread.fork
          .mutate({ threadId, ...(command.title ? { title: command.title } : {}) })
          .catch(acpErrorOf);
        await this.say(
          `Forked into a new thread, ${fork.threadId}: load that session to continue there; ` +
            "this one goes on as it was.",
        );
        return "end_turn";
      }
      case "switch": {
        const providers = await this.deps.providers();
        const provider = ProviderKind.safeParse(command.provider);
        if (!provider.success || !providers.includes(provider.data)) {
          throw RequestError.invalidParams(
            { providers },
            `/switch takes one of ${providers.join(", ")}`,
          );
        }
        await api.thread.updateSettings
          .mutate({ threadId, defaultProvider: provider.data })
          .catch(acpErrorOf);
        await this.notify({ sessionUpdate: "current_mode_update", currentModeId: provider.data });
        await this.say(
          `This thread now continues on ${provider.data}; the next message carries a handoff of the conversation.`,
        );
        return "end_turn";
      }
      case "bring-back": {
        const fork = ThreadId.safeParse(command.forkThreadId);
        if (!fork.success) {
          throw RequestError.invalidParams(undefined, "/bring-back takes a fork's thread id first");
        }
        return turn.run(command.text ?? "Bring back the fork's work.", {
          bringBackFrom: fork.data,
        });
      }
    }
  }

  private say(text: string): Promise<void> {
    return this.notify(textChunk("agent_message_chunk", text));
  }

  private notify(update: SessionUpdate): Promise<void> {
    return this.deps.client.notify("session/update", { sessionId: this.deps.sessionId, update });
  }
}
