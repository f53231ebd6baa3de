import { apiErrorOf } from "@skein/contract";
import { ThreadId } from "@skein/domain";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { TRPCError } from "@trpc/server";
import { threadWindow } from "./thread-view.ts";
import type { ApiCaller } from "./tool-kit.ts";

/**
 * Threads and their diffs as MCP resources, for clients that attach context by URI:
 * `skein://threads/{threadId}` (the latest window, as `skein_read_thread` answers it) and
 * `skein://threads/{threadId}/diff` (the thread's changes since it started, as one patch).
 */

/** Threads listed as resources: the newest page only (the tools page through the rest). */
const LISTED_THREADS = 50;

function threadIdOf(value: string | string[] | undefined): ThreadId {
  const parsed = ThreadId.safeParse(Array.isArray(value) ? value[0] : value);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, "not a thread id");
  return parsed.data;
}

/** A refusal of the API as a JSON-RPC error carrying its words. */
async function inApiWords<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR") throw error;
    const { code, message } = apiErrorOf(error);
    throw new McpError(ErrorCode.InvalidParams, `${code}: ${message}`);
  }
}

export function registerThreadResources(server: McpServer, api: () => ApiCaller): void {
  const list = async () => {
    const page = await api().thread.shells({ limit: LISTED_THREADS });
    return {
      resources: page.threads.map((t) => ({
        uri: `skein://threads/${t.id}`,
        name: t.title,
        mimeType: "application/json",
      })),
    };
  };
  server.registerResource(
    "thread",
    new ResourceTemplate("skein://threads/{threadId}", { list }),
    {
      title: "Skein thread",
      description: "The latest window of a thread: runs, items, pending requests",
      mimeType: "application/json",
    },
    (uri, { threadId }) =>
      inApiWords(async () => {
        const detail = await api().thread.detail({ threadId: threadIdOf(threadId) });
        const text = JSON.stringify(threadWindow(detail));
        return { contents: [{ uri: uri.href, mimeType: "application/json", text }] };
      }),
  );
  server.registerResource(
    "thread-diff",
    new ResourceTemplate("skein://threads/{threadId}/diff", { list: undefined }),
    {
      title: "Skein thread diff",
      description: "Everything a thread changed since it started, as a unified diff",
      mimeType: "text/x-diff",
    },
    (uri, { threadId }) =>
      inApiWords(async () => {
        const diff = await api().review.diff({ threadId: threadIdOf(threadId) });
        const text = diff.files.map((f) => f.patch).join("");
        return { contents: [{ uri: uri.href, mimeType: "text/x-diff", text }] };
      }),
  );
}
