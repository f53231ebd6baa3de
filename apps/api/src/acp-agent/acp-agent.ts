import { createHash } from "node:crypto";
import path from "node:path";
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ContentBlock,
  PROTOCOL_VERSION,
  RequestError,
  type SessionModeState,
} from "@agentclientprotocol/sdk";
import { type ProviderKind, ThreadId, type TurnItem, visibleItemsOf } from "@skein/domain";
import packageJson from "../../package.json" with { type: "json" };
import { createSkeinClient, type SkeinClient } from "../client.ts";
import { agentHeader } from "../http/agent-header.ts";
import { acpErrorOf } from "./acp-errors.ts";
import { AcpSession } from "./acp-session.ts";
import { historyUpdatesOf } from "./item-updates.ts";
import { slashCommands } from "./slash-commands.ts";

/**
 * `skein acp`: a Skein thread as an ACP agent for an editor (B19). `session/new` starts a thread
 * in the project of the editor's folder (made on first use), `session/load` reopens one and
 * replays its conversation, `session/prompt` sends a message and streams its run, the session's
 * mode is the thread's provider, and fork / switch / bring back are slash commands. Everything
 * goes through Skein's API as the editor (its `clientInfo.name` starts the threads).
 */
export type SkeinAcpOptions = {
  /** The Skein API's base URL. */
  url: string;
  token: string | null;
  /** The provider of new sessions' threads (`SKEIN_ACP_PROVIDER`); else Skein's default. */
  provider: ProviderKind | null;
  warn: (line: string) => void;
};

function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`[${block.name}](${block.uri})`);
    else if (block.type === "resource" && "text" in block.resource) {
      parts.push(`${block.resource.uri}:\n${block.resource.text}`);
    } else {
      throw RequestError.invalidParams(undefined, `Skein takes text prompts, not ${block.type}`);
    }
  }
  return parts.join("\n\n");
}

function titled(provider: string): string {
  return provider.charAt(0).toUpperCase() + provider.slice(1);
}

export function createSkeinAcpAgent(options: SkeinAcpOptions): AgentApp {
  let skein: SkeinClient | null = null;
  const sessions = new Map<string, AcpSession>();
  const api = (): SkeinClient => {
    if (skein === null) throw RequestError.invalidRequest(undefined, "initialize first");
    return skein;
  };

  /** The providers Skein runs here: the session modes. */
  const providers = async (): Promise<string[]> => {
    const statuses = await api().provider.status.query().catch(acpErrorOf);
    return statuses.filter((s) => s.capabilities !== null).map((s) => s.provider);
  };
  const modes = async (current: string): Promise<SessionModeState> => ({
    currentModeId: current,
    availableModes: (await providers()).map((id) => ({
      id,
      name: titled(id),
      description: `Runs this thread's next messages on ${titled(id)}`,
    })),
  });

  /** The project of the editor's folder; made once, however many sessions open at once. */
  const projectFor = async (cwd: string) => {
    const root = path.resolve(cwd);
    const { projects } = await api().project.list.query().catch(acpErrorOf);
    const found = projects.find(
      (p) => p.workspaceRoot === root && p.archivedAt === null && p.deletedAt === null,
    );
    if (found) return found.id;
    const key = createHash("sha256").update(root).digest("hex").slice(0, 32);
    const created = await api()
      .project.create.mutate({
        name: path.basename(root) || root,
        workspaceRoot: root,
        commandId: `cmd_acp_project_${key}`,
      })
      .catch(acpErrorOf);
    return created.projectId;
  };

  const open = (threadId: ThreadId, client: AgentContext): AcpSession => {
    const session = new AcpSession({
      api: api(),
      client,
      sessionId: threadId,
      threadId,
      warn: options.warn,
      providers,
    });
    sessions.set(threadId, session);
    // After the answer that names the session, so the editor knows where to put them.
    setImmediate(() => {
      void providers()
        .then((list) =>
          client.notify("session/update", {
            sessionId: threadId,
            update: {
              sessionUpdate: "available_commands_update",
              availableCommands: slashCommands(list),
            },
          }),
        )
        .catch((error: unknown) => options.warn(`commands: ${String(error)}`));
    });
    return session;
  };

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.resourceNotFound(sessionId);
    return session;
  };

  return agent({ name: "skein" })
    .onRequest("initialize", ({ params }) => {
      skein = createSkeinClient({
        url: options.url,
        ...(options.token === null ? {} : { token: options.token }),
        headers: agentHeader(params.clientInfo?.name ?? "acp-client"),
      });
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
        },
        agentInfo: { name: "skein", title: "Skein", version: packageJson.version },
        authMethods: [],
      };
    })
    .onRequest("session/new", async ({ params, client }) => {
      const projectId = await projectFor(params.cwd);
      const { threadId } = await api()
        .thread.create.mutate({
          projectId,
          runtimeMode: "approval-required",
          // The editor shows and edits its own folder: the agent works there, not in a worktree.
          workspace: "local",
          ...(options.provider ? { provider: options.provider } : {}),
        })
        .catch(acpErrorOf);
      const { thread } = await api()
        .thread.detail.query({ threadId, window: { limit: 1 } })
        .catch(acpErrorOf);
      open(threadId, client);
      return { sessionId: threadId, modes: await modes(thread.defaultProvider) };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const threadId = ThreadId.safeParse(params.sessionId);
      if (!threadId.success) throw RequestError.resourceNotFound(params.sessionId);
      const detail = await api().thread.detail.query({ threadId: threadId.data }).catch(acpErrorOf);
      // The conversation comes back as updates before the answer, as ACP asks.
      for (const item of visibleItemsOf(detail)) {
        for (const update of historyUpdatesOf(item as TurnItem)) {
          await client.notify("session/update", { sessionId: threadId.data, update });
        }
      }
      open(threadId.data, client);
      return { modes: await modes(detail.thread.defaultProvider) };
    })
    .onRequest("session/set_mode", async ({ params }) => {
      const session = sessionOf(params.sessionId);
      const list = await providers();
      const provider = list.find((p) => p === params.modeId);
      if (provider === undefined) {
        throw RequestError.invalidParams({ modes: list }, `no mode ${params.modeId}`);
      }
      await api()
        .thread.updateSettings.mutate({
          threadId: session.threadId,
          defaultProvider: provider as ProviderKind,
        })
        .catch(acpErrorOf);
      return {};
    })
    .onRequest("session/prompt", async ({ params }) => {
      const stopReason = await sessionOf(params.sessionId).prompt(promptText(params.prompt));
      return { stopReason };
    })
    .onNotification("session/cancel", async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });
}
