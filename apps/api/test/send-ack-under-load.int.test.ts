// Issue 35 item 5: acknowledgements stay fast while runs queue. A message is answered once its
// run is recorded, not after anything slow the server does meanwhile: here every run is held
// open by a question nobody answers and the provider's readiness re-check never finishes (as a
// runtime start can take up to its 30 s bound on a loaded server), and every send is still
// acknowledged, over HTTP, with its run queued. Bounded by events only: a send that waited for
// the re-check would wait for ever (the test's timeout fails it).
import type { ProviderReadiness } from "@skein/domain/provider";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { until } from "./support/until.ts";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const THREADS = 6;
const MESSAGES = 3;
const question = { id: "q_wait", question: "Go on?", options: [{ label: "yes" }] };

describe("send acknowledgements under load (issue 35)", () => {
  it("every message is acknowledged with its run queued while runs are in flight and the provider's readiness re-check hangs", async () => {
    const codex = createScriptedProvider({ provider: "codex" });
    let checks = 0;
    let releaseCheck: (readiness: ProviderReadiness) => void = () => undefined;
    const hanging = new Promise<ProviderReadiness>((resolve) => {
      releaseCheck = resolve;
    });
    const t = await startTestServer({
      orchestrator: (store, dataDir) =>
        createOrchestrator({
          store,
          // The first check answers; every later one hangs until the test ends.
          adapters: {
            codex: { ...codex, status: () => (checks++ === 0 ? codex.status() : hanging) },
          },
          dataDir,
          sessionIdleMs: 0,
          // Every message finds the last answer stale, so each one would start (or join) a check.
          readinessTtlMs: 0,
        }),
    });
    servers.push(t);
    try {
      const { projectId } = await t.client.project.create.mutate({
        name: "load",
        workspaceRoot: t.workspaceDir,
      });
      const threads: string[] = [];
      for (let i = 0; i < THREADS; i += 1) {
        const { threadId } = await t.client.thread.create.mutate({ projectId, title: `t${i}` });
        threads.push(threadId);
      }
      // Each thread's first run asks a question and stays open: runs in flight on every thread.
      for (let i = 0; i < THREADS; i += 1)
        codex.enqueue([{ type: "question", questions: [question] }]);
      const first = await Promise.all(
        threads.map((threadId) => t.client.thread.sendMessage.mutate({ threadId, text: "first" })),
      );
      await until(
        () => t.client.request.pending.query(),
        (pending) => pending.requests.length === THREADS,
      );
      expect(checks).toBe(1); // the first sends shared one check, which found Codex ready

      // More messages on every thread at once, all queued behind the open runs.
      const more = await Promise.all(
        threads.flatMap((threadId) =>
          Array.from({ length: MESSAGES }, (_, m) =>
            t.client.thread.sendMessage.mutate({ threadId, text: `more ${m}` }),
          ),
        ),
      );
      expect(more).toHaveLength(THREADS * MESSAGES);
      // The first of them started a re-check (it hangs); the others shared it, none waited for it.
      expect(checks).toBe(2);
      for (const [index, threadId] of threads.entries()) {
        const detail = await t.client.thread.detail.query({ threadId });
        const statuses = new Map(detail.runs.map((run) => [run.id, run.status]));
        expect(statuses.get(first[index]!.runId)).toBe("waiting");
        const mine = more.slice(index * MESSAGES, (index + 1) * MESSAGES);
        for (const { runId } of mine) expect(statuses.get(runId)).toBe("queued");
      }
    } finally {
      releaseCheck({ found: true, version: "scripted-1", ready: true, lastError: null });
    }
  });
});
