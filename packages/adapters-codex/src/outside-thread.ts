import { resolveCodexConfig } from "./config/codex-config.ts";
import type { CodexConfig } from "./config/codex-config.ts";
import { CodexAppServerClient } from "./rpc/app-server-client.ts";

/**
 * For tests of adoption (B6): a Codex thread made the way a person's own client makes one,
 * straight on `codex app-server` (no Skein mapping): `thread/start` in `cwd`, then one
 * `turn/start` per prompt, each awaited to `turn/completed`. Resolves with the thread id.
 */
export async function codexThreadOutsideSkein(
  config: CodexConfig,
  cwd: string,
  prompts: readonly string[],
): Promise<string> {
  const client = await CodexAppServerClient.start({
    config: resolveCodexConfig(config),
    providerSessionId: "outside-skein",
    cwd,
  });
  try {
    const { thread } = await client.request("thread/start", {
      cwd,
      approvalPolicy: "never",
      sandbox: "read-only",
    });
    for (const text of prompts) {
      const completed = new Promise<void>((resolve) => {
        const off = client.onNotification((n) => {
          if (n.method === "turn/completed" && n.params.threadId === thread.id) {
            off();
            resolve();
          }
        });
      });
      await client.request("turn/start", {
        threadId: thread.id,
        input: [{ type: "text", text, text_elements: [] }],
      });
      await completed;
    }
    return thread.id;
  } finally {
    await client.close();
  }
}
