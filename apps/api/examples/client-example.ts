// A separate program that uses Skein only through the typed client, over HTTP:
//   pnpm --filter @skein/api exec tsx examples/client-example.ts [url] [token]
// e.g. `… client-example.ts http://127.0.0.1:4317 "$SKEIN_API_TOKEN"` against `pnpm start`.
import { createSkeinClient } from "@skein/api/client";

const [url = "http://127.0.0.1:4317", token] = process.argv.slice(2);
const skein = createSkeinClient({ url, ...(token ? { token } : {}) });

const health = await skein.health.query();
console.log(`connected to Skein ${health.version}; the log is at sequence ${health.sequence}`);

const { projectId } = await skein.project.create.mutate({
  name: "Client example",
  workspaceRoot: process.cwd(),
});
const { threadId } = await skein.thread.create.mutate({ projectId, title: "Hello from a client" });

// Watch the thread: first a snapshot (tracked with its sequence), then every later event, in
// batches tracked with their last event's sequence.
let markSnapshot: () => void = () => undefined;
const snapshotSeen = new Promise<void>((resolve) => {
  markSnapshot = resolve;
});
let runId = "";
const finished = new Promise<void>((resolve, reject) => {
  const subscription = skein.thread.watchDetail.subscribe(
    { threadId },
    {
      onData({ id, data }) {
        if (data.type === "snapshot") {
          console.log(`snapshot @${id}: ${data.data.runs.length} runs so far`);
          markSnapshot();
          return;
        }
        const { event } = data;
        console.log(`event    @${event.sequence}: ${event.type}`);
        const payload = event.data as { runId?: string };
        if (event.type === "RunFinished" && payload.runId === runId) {
          subscription.unsubscribe();
          resolve();
        }
      },
      onError: reject,
    },
  );
});
await snapshotSeen;

// Returns as soon as the run is recorded; the provider works in the background.
({ runId } = await skein.thread.sendMessage.mutate({ threadId, text: "Say hello" }));
await finished;

const detail = await skein.thread.detail.query({ threadId });
const run = detail.runs.find((r) => r.id === runId);
const reply = detail.visibleTurnItems.find(
  (item) => item.type === "assistant_message" && item.runId === runId,
);
console.log(`run ${run?.status} on ${run?.provider}`);
if (reply?.type === "assistant_message") console.log(`assistant: ${reply.text}`);
if (run?.error) console.log(`error: ${run.error}`);

// A fork is cheap: no provider work happens until its first message (T1).
const fork = await skein.thread.fork.mutate({ threadId, sourcePoint: { type: "latest_stable" } });
const graph = await skein.thread.graph.query({ threadId: fork.threadId });
const { transfer } = await skein.transfer.get.query({ transferId: fork.transferId });
console.log(
  `fork ${fork.threadId}: ${graph.providerThreads.length} provider threads, transfer ${transfer.status}`,
);
