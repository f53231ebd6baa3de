import { tmpdir } from "node:os";
import type { NativeSessionRead, NativeSessionSummary } from "@skein/domain/provider";
import { type CodexConfig, resolveCodexConfig } from "./config/codex-config.ts";
import type { Thread, ThreadListResponse } from "./protocol/index.ts";
import { CodexAppServerClient } from "./rpc/app-server-client.ts";
import { CodexRpcError } from "./rpc/errors.ts";
import { listNativeTurns, toHistoryTurn } from "./session/native-history.ts";

/** A page is at most this long; `thread/list` takes a limit per call. */
const PAGE_SIZE = 50;

/**
 * Threads a person started in any front end (CLI, IDE, `codex exec`, an app-server client such as
 * Skein itself); sub-agent threads belong to their parent and are left out.
 */
const PERSON_SOURCES = ["cli", "vscode", "exec", "appServer"] as const;

/** Runs `work` on a short-lived `codex app-server` that starts no thread and makes no model call. */
async function withAppServer<T>(
  config: CodexConfig,
  purpose: string,
  work: (client: CodexAppServerClient) => Promise<T>,
): Promise<T> {
  const client = await CodexAppServerClient.start({
    config: resolveCodexConfig(config),
    providerSessionId: purpose,
    cwd: tmpdir(),
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

function toSummary(thread: Thread): NativeSessionSummary {
  return {
    nativeThreadRef: thread.id,
    title: (thread.name ?? thread.preview).trim() || "Codex thread",
    cwd: thread.cwd,
    // Codex reports seconds since the epoch.
    createdAt: new Date(thread.createdAt * 1000).toISOString(),
    updatedAt: new Date(thread.updatedAt * 1000).toISOString(),
  };
}

/** B6: the person's Codex threads in `cwd` (`thread/list` filtered by cwd), newest first. */
export function listCodexSessions(
  config: CodexConfig,
  input: { cwd: string; limit: number },
): Promise<NativeSessionSummary[]> {
  return withAppServer(config, "session-list", async (client) => {
    const out: NativeSessionSummary[] = [];
    let cursor: string | null = null;
    while (out.length < input.limit) {
      const page: ThreadListResponse = await client.request("thread/list", {
        cwd: input.cwd,
        cursor,
        limit: Math.min(PAGE_SIZE, input.limit - out.length),
        sortKey: "updated_at",
        sourceKinds: [...PERSON_SOURCES],
      });
      out.push(...page.data.filter((t) => !t.ephemeral).map(toSummary));
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    return out.slice(0, input.limit);
  });
}

/**
 * B6: one Codex thread with its turns (`thread/read` for what it is, `thread/turns/list` for its
 * history, as a resumed thread would replay it); null when Codex has no such thread.
 */
export function readCodexSession(
  config: CodexConfig,
  nativeThreadRef: string,
): Promise<NativeSessionRead | null> {
  return withAppServer(config, "session-read", async (client) => {
    let thread: Thread;
    try {
      ({ thread } = await client.request("thread/read", { threadId: nativeThreadRef }));
    } catch (error) {
      if (isMissingThread(error)) return null;
      throw error;
    }
    const turns = await listNativeTurns(client, thread.id);
    return { session: toSummary(thread), turns: turns.map(toHistoryTurn) };
  });
}

/** Codex answers an unknown (or malformed) thread id with an invalid-request error. */
function isMissingThread(error: unknown): boolean {
  return (
    error instanceof CodexRpcError &&
    (error.code === -32600 || /not found|no rollout|invalid thread id/i.test(error.message))
  );
}
