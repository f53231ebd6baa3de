// `pnpm skein generate`: a large generated history in a data dir (SQLite) or a PostgreSQL
// schema, for benchmarks and for trying the UI on a big history.
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { type EventStore, openEventStore } from "@skein/db";
import { generateHistory } from "./history-generator.ts";

const USAGE = `usage: pnpm skein generate --data-dir DIR [--threads N] [--events M] [--seed S]
                            [--projects P] [--postgres URL]

Builds a realistic history (projects, threads of very different lengths, tool calls with long
outputs, forks of forks) through the event store's append path, reproducibly from the seed.
Defaults: 100,000 threads, 1,500,000 events, seed 1. With --postgres (a postgres:// URL, its
?schema= naming the schema) the events go there; the data dir is still created for the API.
The target store must be empty.`;

export async function generateCommand(args: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(args);
  } catch (error) {
    process.stderr.write(`skein generate: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const dataDir = values["data-dir"];
  const numbers = {
    threads: Number(values.threads ?? 100_000),
    events: Number(values.events ?? 1_500_000),
    seed: Number(values.seed ?? 1),
    projects: values.projects === undefined ? undefined : Number(values.projects),
  };
  const bad = Object.entries(numbers).find(
    ([, value]) => value !== undefined && !(Number.isInteger(value) && value >= 0),
  );
  if (dataDir === undefined || bad || numbers.threads < 1) {
    if (bad) process.stderr.write(`skein generate: --${bad[0]} must be a whole number\n`);
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  mkdirSync(dataDir, { recursive: true });
  const url = values.postgres;
  const store: EventStore = await openEventStore(url ? { url } : { dataDir });
  try {
    const head = await store.headSequence();
    if (head > 0) {
      process.stderr.write(
        `skein generate: the store already holds ${head} events; use an empty one\n`,
      );
      return 1;
    }
    const stats = await generateHistory(store, {
      ...numbers,
      onProgress: ({ threads, events, elapsedMs }) =>
        process.stderr.write(
          `${threads} threads, ${events} events, ${(elapsedMs / 1000).toFixed(1)} s\n`,
        ),
    });
    process.stdout.write(`${JSON.stringify(stats)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    options: {
      "data-dir": { type: "string" },
      threads: { type: "string" },
      events: { type: "string" },
      seed: { type: "string" },
      projects: { type: "string" },
      postgres: { type: "string" },
    },
  }).values;
}
