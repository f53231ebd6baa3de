// Child side of send-load.bench.ts: N typed-client `events.watch` subscribers in one process,
// apart from the server and from the process that sends, so their parsing loads neither. Every
// subscriber keeps the sequences it was given, in arrival order; the parent is told how many runs
// have finished (from the first subscriber) and, at the end, asks for the exactness check
// against the log as a fresh replay reads it.
import { createSkeinClient } from "../src/client.ts";

type Request = { type: "check"; head: number };
export type SubscriberMessage =
  | { type: "ready" }
  | { type: "error"; message: string }
  | { type: "finished"; runs: number; failed: string[] }
  | { type: "checked"; events: number; missing: number; duplicated: number; outOfOrder: number };

const [url = "", countArg = "100", fromArg = "0"] = process.argv.slice(2);
const count = Number(countArg);
const from = Number(fromArg);
const client = createSkeinClient({ url });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const send = (message: SubscriberMessage) => process.send?.(message);

/** Sequences in arrival order, in a growing typed array (1M deliveries must not churn the GC). */
class Sequences {
  values = new Float64Array(4_096);
  length = 0;
  push(sequence: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = sequence;
  }
}

const received: Sequences[] = [];
const subscriptions: { unsubscribe(): void }[] = [];
let connected = 0;
let finishedRuns = 0;
const failed: string[] = [];
let reportDue = false;

for (let i = 0; i < count; i += 1) {
  const sequences = new Sequences();
  received.push(sequences);
  let opened = false;
  subscriptions.push(
    client.events.watch.subscribe(
      { lastEventId: String(from) },
      {
        onStarted() {
          if (opened) return;
          opened = true;
          connected += 1;
          if (connected === count) send({ type: "ready" });
        },
        onData({ data }) {
          if (data.type !== "event") return;
          sequences.push(data.event.sequence);
          if (i === 0 && data.event.type === "RunFinished") {
            const run = data.event.data as { runId: string; status: string; error?: string | null };
            finishedRuns += 1;
            if (run.status !== "completed") {
              failed.push(`${run.runId}: ${run.status}${run.error ? ` (${run.error})` : ""}`);
            }
            // Batched: the parent only needs to know when the count reaches its total.
            if (!reportDue) {
              reportDue = true;
              setTimeout(() => {
                reportDue = false;
                send({ type: "finished", runs: finishedRuns, failed });
              }, 100);
            }
          }
        },
        onError(error) {
          send({ type: "error", message: String(error) });
        },
      },
    ),
  );
}

/** The log after `from` up to `head`, as a new subscriber replaying it from the store reads it. */
function replay(head: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const sequences: number[] = [];
    const subscription = client.events.watch.subscribe(
      { lastEventId: String(from) },
      {
        onData({ data }) {
          if (data.type !== "event") return;
          sequences.push(data.event.sequence);
          if (data.event.sequence >= head) {
            subscription.unsubscribe();
            resolve(sequences);
          }
        },
        onError: reject,
      },
    );
  });
}

process.on("message", async (message: Request) => {
  if (message.type !== "check") return;
  // Deliveries still on their way are waited for (a bounded while); what never comes is missing.
  const reached = () => received.every((s) => (s.values[s.length - 1] ?? 0) >= message.head);
  for (let waited = 0; !reached() && waited < 30_000; waited += 100) await sleep(100);
  const expected = await replay(message.head);
  let missing = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  for (const sequences of received) {
    const seen = new Set<number>();
    let last = from;
    for (let k = 0; k < sequences.length; k += 1) {
      const sequence = sequences.values[k] ?? 0;
      if (sequence > message.head) break;
      if (seen.has(sequence)) duplicated += 1;
      else if (sequence < last) outOfOrder += 1;
      seen.add(sequence);
      last = Math.max(last, sequence);
    }
    for (const sequence of expected) if (!seen.has(sequence)) missing += 1;
  }
  for (const subscription of subscriptions) subscription.unsubscribe();
  send({ type: "checked", events: expected.length, missing, duplicated, outOfOrder });
  setTimeout(() => process.exit(0), 100);
});
