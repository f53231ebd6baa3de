// Child side of sse-fanout.bench.ts: N typed-client SSE subscribers in one process (apart from
// the server, so client parsing does not steal the server's event loop). Each subscriber records
// when every event arrived; at the end the parent sends commit times and gets latencies back.
import { createSkeinClient } from "../src/client.ts";

type Request = { type: "commits"; commits: [number, number][] };

const [url = "", countArg = "100"] = process.argv.slice(2);
const count = Number(countArg);
const client = createSkeinClient({ url });
/**
 * Arrival time by sequence (0 = not arrived), one typed array per subscriber: the bookkeeping
 * of 500k deliveries must not itself load the client with Map growth and GC.
 */
class Arrivals {
  private times = new Float64Array(16_384);
  set(sequence: number, at: number): void {
    if (sequence >= this.times.length) {
      const grown = new Float64Array(Math.max(sequence + 1, this.times.length * 2));
      grown.set(this.times);
      this.times = grown;
    }
    this.times[sequence] = at;
  }
  get(sequence: number): number | undefined {
    const at = this.times[sequence];
    return at === undefined || at === 0 ? undefined : at;
  }
}
const received: Arrivals[] = [];
let ready = 0;
const subscriptions: { unsubscribe(): void }[] = [];
for (let i = 0; i < count; i += 1) {
  const arrivals = new Arrivals();
  received.push(arrivals);
  subscriptions.push(
    client.thread.watchShells.subscribe(undefined, {
      onData({ data }) {
        if (data.type === "snapshot") {
          ready += 1;
          if (ready === count) process.send?.({ type: "ready" });
          return;
        }
        arrivals.set(data.event.sequence, performance.timeOrigin + performance.now());
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
