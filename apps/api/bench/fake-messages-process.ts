/**
 * The fake Anthropic Messages API in a process of its own, for the Claude benches that time a
 * turn through Skein against a direct SDK session (see fake-responses-process.ts for why: in the
 * bench's process its answers would wait on Skein's work). Prints its URL on the first line of
 * stdout; ends when its stdin closes.
 */
import { startFakeMessagesServer } from "@skein/fake-models";

const server = await startFakeMessagesServer();
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
