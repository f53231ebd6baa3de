import { readFileSync } from "node:fs";
import { parseSlice, replaySlice, SliceError } from "./replay-slice.ts";

const USAGE = `usage: pnpm skein replay <raw log slice> [--provider codex|claude]

Feeds recorded raw provider frames (JSON lines cut from a raw-*.jsonl file, a fixture, or a saved
events.raw answer) through the adapter's mapping and prints the normalized runtime events, one
JSON object per line: { providerSessionId, event }.`;

/** `skein <command> …`: only `replay` so far. Exit codes: 0 ok, 1 bad slice, 2 bad usage. */
async function main(args: string[]): Promise<number> {
  const [command, file, ...rest] = args;
  if (command !== "replay" || file === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const providerAt = rest.indexOf("--provider");
  const provider = providerAt === -1 ? undefined : rest[providerAt + 1];
  try {
    const frames = parseSlice(readFileSync(file, "utf8"), provider);
    const sessions = await replaySlice(frames, provider ? { provider } : {});
    for (const { providerSessionId, events } of sessions) {
      for (const event of events) {
        process.stdout.write(`${JSON.stringify({ providerSessionId, event })}\n`);
      }
    }
    return 0;
  } catch (error) {
    const known = error instanceof SliceError || error instanceof SyntaxError;
    const code = (error as { code?: string }).code;
    if (known || code === "ENOENT") {
      process.stderr.write(`skein replay: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
