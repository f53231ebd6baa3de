/**
 * The fake OpenAI Responses API in a process of its own, for the Codex benches that time a turn
 * through Skein against one sent straight to a second app-server: in the bench's own process the
 * fake's answers would wait on Skein's work (a commit, a checkpoint's messages) and charge Skein
 * for a delay only the shared event loop makes; a real model service runs elsewhere. Prints its
 * URL on the first line of stdout; ends when its stdin closes.
 */
import { startFakeResponsesServer } from "@skein/fake-models";

const server = await startFakeResponsesServer();
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
