/**
 * The fake Gemini API in a process of its own, for benches that time a turn through Skein against
 * one sent straight to the agent: in the bench's own process, the fake's answers would wait on
 * Skein's work and charge Skein for a delay only the shared event loop makes. Prints its URL on
 * the first line of stdout; ends when its stdin closes.
 */
import { startFakeGeminiServer } from "@skein/fake-models";

const server = await startFakeGeminiServer();
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
