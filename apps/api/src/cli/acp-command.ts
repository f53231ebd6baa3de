// `pnpm skein acp`: a Skein thread as an ACP agent on stdio, for editors (Zed, JetBrains, …).
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createSkeinAcpAgent } from "../acp-agent/acp-agent.ts";
import { clientConfigFrom } from "./mcp-command.ts";

const USAGE = `usage: pnpm -s skein acp [--url URL]

Speaks the Agent Client Protocol on stdin/stdout: each session is a Skein thread of a running
Skein (pnpm start) at --url, else SKEIN_URL, else http://SKEIN_HOST:SKEIN_API_PORT
(http://127.0.0.1:4317). With a server token, set SKEIN_API_TOKEN; SKEIN_ACP_PROVIDER picks the
provider of new sessions (the session mode switches it later). Slash commands: /fork,
/switch <provider>, /bring-back <fork thread id> [message].`;

export async function acpCommand(args: string[]): Promise<number> {
  const config = clientConfigFrom(args, USAGE, "acp");
  if (config === null) return 2;
  const app = createSkeinAcpAgent({
    url: config.url,
    token: config.token,
    provider: config.acpProvider,
    warn: (line) => process.stderr.write(`skein acp: ${line}\n`),
  });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.closed;
  return 0;
}
