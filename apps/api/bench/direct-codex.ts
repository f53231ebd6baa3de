/**
 * A second `codex app-server` driven straight over its protocol with the adapter's JSON-RPC
 * client, sending the same requests Skein's adapter sends for a default (approval-required)
 * thread: its policy on thread/start and again on every turn/start, and the delegate tool. The
 * "direct" side of the Codex turn benches.
 */
import {
  CodexAppServerClient,
  resolveCodexConfig,
  runtimePolicy,
} from "@skein/adapters-codex/testing";
import { DELEGATE_TOOL } from "../src/orchestrator/index.ts";

export type DirectCodex = {
  /** `thread/start`; resolves with the new thread's id. */
  startThread(): Promise<string>;
  /** `thread/fork` of `threadId` at its latest state (as Skein forks); resolves with the fork's id. */
  forkThread(threadId: string): Promise<string>;
  /** `turn/start` on `threadId`; resolves on its `turn/completed`. */
  turn(threadId: string, text: string): Promise<void>;
  close(): Promise<void>;
};

export async function startDirectCodex(h: {
  codexHome: string;
  workspace: string;
}): Promise<DirectCodex> {
  const client = await CodexAppServerClient.start({
    config: resolveCodexConfig({ codexHome: h.codexHome, env: { RUST_LOG: "error" } }),
    providerSessionId: "pss_bench_direct",
    cwd: h.workspace,
  });
  // Turn ids seen completing; a waiter registered after the fact finds its turn here.
  const completedIds = new Set<string>();
  const waiters = new Map<string, () => void>();
  client.onNotification((n) => {
    if (n.method !== "turn/completed") return;
    completedIds.add(n.params.turn.id);
    waiters.get(n.params.turn.id)?.();
  });
  const policy = runtimePolicy("approval-required");
  return {
    async startThread() {
      const { thread } = await client.request("thread/start", {
        cwd: h.workspace,
        approvalPolicy: policy.approvalPolicy,
        sandbox: policy.sandbox,
        dynamicTools: [
          {
            type: "function",
            name: DELEGATE_TOOL.name,
            description: DELEGATE_TOOL.description,
            inputSchema: JSON.parse(JSON.stringify(DELEGATE_TOOL.inputSchema)),
          },
        ],
      });
      return thread.id;
    },
    async forkThread(threadId) {
      const { thread } = await client.request("thread/fork", {
        threadId,
        cwd: h.workspace,
        approvalPolicy: policy.approvalPolicy,
        sandbox: policy.sandbox,
        excludeTurns: true,
      });
      return thread.id;
    },
    async turn(threadId, text) {
      const { turn } = await client.request("turn/start", {
        threadId,
        input: [{ type: "text", text, text_elements: [] }],
        approvalPolicy: policy.approvalPolicy,
        sandboxPolicy: policy.sandboxPolicy,
      });
      if (!completedIds.has(turn.id)) {
        await new Promise<void>((resolve) => waiters.set(turn.id, resolve));
        waiters.delete(turn.id);
      }
    },
    async close() {
      await client.close();
    },
  };
}
