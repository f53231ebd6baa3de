import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import { afterEach, describe, expect, it } from "vitest";
import type { AppRouter, RouterOutputs } from "@skein/contract";
import { expectExactlyThreadLog } from "./support/delivery.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { startTcpProxy } from "./support/tcp-proxy.ts";
import { tempDir } from "./support/test-server.ts";

// Issue 15 item 6: the server's own fast SSE writer must stay readable by a stock tRPC client, so
// another service needs nothing of Skein's to subscribe: @trpc/client's httpSubscriptionLink over
// the `eventsource` package, as a plain Node 20 service would use them.

type DetailSnapshot = RouterOutputs["thread"]["detail"];
type ShellsSnapshot = RouterOutputs["thread"]["shells"];

let t: ScriptedTestServer;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stockClient(url: string, token?: string) {
  const endpoint = `${url}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url: endpoint,
          EventSource,
          ...(token === undefined ? {} : { connectionParams: { token } }),
        }),
        false: httpBatchLink({
          url: endpoint,
          ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
        }),
      }),
    ],
  });
}

async function newThread(client: ReturnType<typeof stockClient>) {
  const { projectId } = await client.project.create.mutate({
    name: "Demo",
    workspaceRoot: tempDir("skein-stock-ws-"),
  });
  const { threadId } = await client.thread.create.mutate({ projectId, title: "Main" });
  return threadId;
}

async function send(client: ReturnType<typeof stockClient>, threadId: string, chunks: number) {
  t.codex.enqueue([{ type: "text", text: "y".repeat(chunks * 8), chunks, delayMs: 20 }]);
  const { runId } = await client.thread.sendMessage.mutate({ threadId, text: "go" });
  return runId;
}

describe("a stock @trpc/client httpSubscriptionLink reads every subscription", () => {
  it("S2: watchDetail, watchShells and events.watch: snapshot, then exactly the log's events", async () => {
    t = await startScriptedServer({ token: "stock-token" });
    cleanups.push(() => t.close());
    const client = stockClient(t.server.url, "stock-token");
    const threadId = await newThread(client);

    const detail = new Recorder<DetailSnapshot>();
    const shells = new Recorder<ShellsSnapshot>();
    const log = new Recorder<{ snapshotSequence: number }>();
    const subs = [
      client.thread.watchDetail.subscribe({ threadId }, detail.handlers),
      client.thread.watchShells.subscribe(undefined, shells.handlers),
      client.events.watch.subscribe({ threadId, lastEventId: "0" }, log.handlers),
    ];
    cleanups.push(() => {
      for (const sub of subs) sub.unsubscribe();
    });
    await detail.until(() => detail.snapshots.length === 1, 10_000, "the detail snapshot");
    await shells.until(() => shells.snapshots.length === 1, 10_000, "the shells snapshot");
    const from = detail.snapshots[0]!.snapshotSequence;
    expect(detail.snapshots[0]!.thread?.id).toBe(threadId);

    await t.orchestrator.waitForRun(await send(client, threadId, 5));
    await expectExactlyThreadLog(t.store, threadId, from, () => detail.events);
    await expectExactlyThreadLog(t.store, threadId, 0, () => log.events);
    expect(shells.events.length).toBeGreaterThan(0);
  });

  it("S2: a connection cut mid-stream resumes through Last-Event-ID: every event once, in order", async () => {
    t = await startScriptedServer();
    cleanups.push(() => t.close());
    const proxy = await startTcpProxy(t.server.port);
    cleanups.push(() => proxy.close());
    const client = stockClient(proxy.url.replace(/\/trpc$/, ""));
    const threadId = await newThread(client);
    const detail = new Recorder<DetailSnapshot>();
    const sub = client.thread.watchDetail.subscribe({ threadId }, detail.handlers);
    cleanups.push(() => sub.unsubscribe());
    await detail.until(() => detail.snapshots.length === 1);
    const from = detail.snapshots[0]!.snapshotSequence;

    const runId = await send(client, threadId, 150);
    for (let drop = 0; drop < 3; drop += 1) {
      const seen = detail.events.length;
      await detail.until(
        () => proxy.connections > 0 && detail.events.length > seen + 2,
        15_000,
        "a reconnection",
      );
      expect(proxy.dropAll()).toBeGreaterThan(0);
    }
    await t.orchestrator.waitForRun(runId);
    await expectExactlyThreadLog(t.store, threadId, from, () => detail.events, 20_000);
    // Resumed, not restarted: one snapshot for the whole session.
    expect(detail.snapshots).toHaveLength(1);
  });
});
