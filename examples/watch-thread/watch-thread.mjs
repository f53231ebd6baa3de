// A separate service that uses Skein only through the built client, with plain `node`:
//   node examples/watch-thread/watch-thread.mjs [url] [token]
// e.g. `… watch-thread.mjs http://127.0.0.1:4317 "$SKEIN_API_TOKEN"` against `pnpm start`.
// It creates a project (its working directory is the workspace) and a thread, watches the thread,
// sends a message, disconnects mid-run and resumes from the last event it saw (`Last-Event-ID`),
// then prints what it saw. Plain JavaScript: `@skein/client` is built JavaScript, no TS loader.
import { createSkeinClient } from "@skein/client";

const [url = "http://127.0.0.1:4317", token] = process.argv.slice(2);
// TypeScript services write `createSkeinClient<AppRouter>(…)`, with `AppRouter` from @skein/contract.
const skein = createSkeinClient({ url, ...(token ? { token } : {}) });
const say = (line) => process.stdout.write(`${line}\n`);

const health = await skein.health.query();
say(`connected to Skein ${health.version}; the log is at sequence ${health.sequence}`);

const { projectId } = await skein.project.create.mutate({
  name: "Watch-thread example",
  workspaceRoot: process.cwd(),
});
const { threadId } = await skein.thread.create.mutate({ projectId, title: "Watched thread" });
say(`thread ${threadId}`);

/**
 * One watch of the thread until `until` says stop (or the run finished). Every message is tracked:
 * `id` is the log sequence to resume after. Resolves with the last id seen.
 * @param {string | null} lastEventId
 * @param {(seen: { type: string; sequence: number }[]) => boolean} until
 */
function watch(lastEventId, until) {
  /** @type {{ type: string; sequence: number }[]} */
  const seen = [];
  let lastId = lastEventId;
  return new Promise((resolve, reject) => {
    const subscription = skein.thread.watchDetail.subscribe(
      { threadId, lastEventId },
      {
        onData({ id, data }) {
          lastId = id;
          if (data.type === "snapshot") {
            say(`  snapshot @${id}: ${data.data.runs.length} runs`);
          } else {
            seen.push({ type: data.event.type, sequence: data.event.sequence });
            // Streamed text arrives as many deltas; the summary line counts them.
            if (data.event.type !== "ItemDeltaAppended") {
              say(`  event    @${data.event.sequence}: ${data.event.type}`);
            }
          }
          const finished = seen.some((event) => event.type === "RunFinished");
          if (finished || until(seen)) {
            subscription.unsubscribe();
            resolve({ lastId, seen, finished });
          }
        },
        onError: reject,
      },
    );
  });
}

/** @param {{ type: string }[]} seen */
const deltas = (seen) => seen.filter((event) => event.type === "ItemDeltaAppended").length;

say("watching (first connection)");
const first = watch(null, (seen) => deltas(seen) >= 3);
// Returns as soon as the run is recorded; the provider works in the background. A long answer
// (the word "slow" makes the test server stream it) leaves time to drop and resume mid-run.
const { runId } = await skein.thread.sendMessage.mutate({
  threadId,
  text: "Write a slow, long answer",
});
const before = await first;
say(
  `disconnected after @${before.lastId} (${before.seen.length} events, ${deltas(before.seen)} deltas)`,
);

say(`resuming with Last-Event-ID ${before.lastId}`);
const after = before.finished
  ? { seen: [], lastId: before.lastId }
  : await watch(before.lastId, () => false);
const repeated = after.seen.filter((event) => Number(event.sequence) <= Number(before.lastId));
if (after.seen[0]) say(`first event after the resume: @${after.seen[0].sequence}`);
say(
  `resumed: ${after.seen.length} events (${deltas(after.seen)} deltas), ` +
    `${repeated.length} already seen before the drop`,
);

const detail = await skein.thread.detail.query({ threadId });
const run = detail.runs.find((r) => r.id === runId);
const reply = (detail.visibleTurnItems ?? detail.turnItems).find(
  (item) => item.type === "assistant_message" && item.runId === runId,
);
say(`run ${run?.status} on ${run?.provider}`);
if (reply?.type === "assistant_message") say(`assistant: ${reply.text.length} characters`);
