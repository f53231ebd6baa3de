// Child side of sse-fanout.bench.ts: N typed-client SSE subscribers in one process (apart from
// the server, so client parsing does not steal the server's event loop). Each subscriber records
// when every event arrived; at the end the parent sends commit times and gets latencies back.
import { createSkeinClient } from "../src/client.ts";

type Request = { type: "commits"; commits: [number, number][] };

const [url = "", countArg = "100"] = process.argv.slice(2);
const count = Number(countArg);
const client = createSkeinClient({ url });
const received: Map<number, number>[] = [];
let ready = 0;
const subscriptions: { unsubscribe(): void }[] = [];
for (let i = 0; i < count; i += 1) {
  const arrivals = new Map<number, number>();
  received.push(arrivals);
  subscriptions.push(
    client.thread.watchShells.subscribe(undefined, {
      onData({ data }) {
        if (data.type === "snapshot") {
          ready += 1;
          if (ready === count) process.send?.({ type: "ready" });
          return;
        }
        const at = performance.timeOrigin + performance.now();
        for (const event of data.events) arrivals.set(event.sequence, at);
      },
      onError(error) {
        process.send?.({ type: "error", message: String(error) });
      },
    }),
  );
}

process.on("message", (message: Request) => {
  if (message.type !== "commits") return;
  const latencies: number[] = [];
  let missing = 0;
  for (const arrivals of received) {
    for (const [sequence, committedAt] of message.commits) {
      const at = arrivals.get(sequence);
      if (at === undefined) missing += 1;
      else latencies.push(at - committedAt);
    }
  }
  for (const subscription of subscriptions) subscription.unsubscribe();
  process.send?.({ type: "latencies", latencies, missing }, () => process.exit(0));
});
