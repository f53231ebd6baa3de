import { randomUUID } from "node:crypto";
import { query, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { AsyncQueue } from "@skein/adapter-kit";
import { buildChildEnv, type ClaudeConfig } from "./config.ts";

/** A plain SDK conversation: `turn` sends one prompt and resolves on its `result`. */
export type DirectClaudeSession = {
  readonly sessionId: string;
  turn(text: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * For the issue 34 benches (B21): the "direct" side, a Claude Agent SDK session driven the way a
 * program using the SDK drives one, with no Skein in between: one streaming-input `query()` (one
 * `claude` process), new or forked from `forkFrom` at its latest state. It asks for what Skein's
 * adapter asks for on a default thread (default permission mode with a permission callback,
 * partial messages) so the two sides run the same CLI; Skein's own extras are left out.
 */
export function directClaudeSession(
  config: ClaudeConfig,
  cwd: string,
  options: { forkFrom?: string } = {},
): DirectClaudeSession {
  const sessionId = randomUUID();
  const input = new AsyncQueue<SDKUserMessage>();
  const conversation = query({
    prompt: input,
    options: {
      cwd,
      permissionMode: "default",
      includePartialMessages: true,
      env: buildChildEnv(config, "default"),
      ...(config.executablePath ? { pathToClaudeCodeExecutable: config.executablePath } : {}),
      canUseTool: async (_tool, toolInput) => ({ behavior: "allow", updatedInput: toolInput }),
      sessionId,
      ...(options.forkFrom ? { resume: options.forkFrom, forkSession: true } : {}),
    },
  });
  // Results in order: each settles the oldest prompt still waiting.
  const waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const pump = (async () => {
    for await (const message of conversation) {
      if (message.type !== "result") continue;
      const waiter = waiting.shift();
      if (message.subtype === "success") waiter?.resolve();
      else waiter?.reject(new Error(`Claude Code ended the turn ${message.subtype}`));
    }
  })().catch((error: unknown) => {
    for (const waiter of waiting.splice(0)) waiter.reject(error as Error);
  });
  return {
    sessionId,
    turn(text) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject });
        input.push({
          type: "user",
          message: { role: "user", content: text },
          parent_tool_use_id: null,
          session_id: sessionId,
        });
      });
    },
    async close() {
      input.end();
      await pump;
    },
  };
}
