// B19: what Skein's MCP server adds to a call. The same reads and commands go through the typed
// tRPC client and through the official MCP client (Streamable HTTP) against one server,
// alternating so drift hits both, best of three each; a row is the ratio of the two rates (the
// MCP path over the plain API: 1 would be free).
import { rmSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createScriptedProvider } from "@skein/scripted-provider";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { callTool, connectMcp } from "../test/support/mcp-client.ts";
import { startTestServer, tempDir } from "../test/support/test-server.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { overheadRatio } from "./overhead-ratio.ts";

const CALLS = benchSize(300, 10);

const workspace = tempDir("skein-bench-mcp-");
const t = await startTestServer({
  orchestrator: (store, dataDir) =>
    createOrchestrator({
      store,
      adapters: { codex: createScriptedProvider({ provider: "codex" }) },
      dataDir,
      sessionIdleMs: 0,
    }),
});
const { projectId } = await t.client.project.create.mutate({ name: "b", workspaceRoot: workspace });
const { threadId } = await t.client.thread.create.mutate({ projectId });
const mcp: Client = await connectMcp(t.server.url, { name: "bench-agent" });

async function callsPerSecond(call: (n: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < CALLS; n += 1) await call(n);
  return CALLS / ((performance.now() - started) / 1_000);
}

let batch = 0;
const read = await overheadRatio((viaMcp) =>
  callsPerSecond(() =>
    viaMcp
      ? callTool(mcp, "skein_read_thread", { threadId })
      : t.client.thread.detail.query({ threadId }),
  ),
);
const create = await overheadRatio((viaMcp) => {
  batch += 1;
  return callsPerSecond((n) =>
    viaMcp
      ? callTool(mcp, "skein_create_thread", { projectId, commandId: `cmd_bench_${batch}_${n}` })
      : t.client.thread.create.mutate({ projectId, commandId: `cmd_bench_${batch}_${n}` }),
  );
});
await mcp.close();
await t.close();
rmSync(workspace, { recursive: true, force: true });

console.log(`read: ${Math.round(read.attached)}/s via MCP, ${Math.round(read.plain)}/s via tRPC`);
console.log(
  `create: ${Math.round(create.attached)}/s via MCP, ${Math.round(create.plain)}/s via tRPC`,
);
const round = (ratio: number) => Math.round(ratio * 1000) / 1000;
writeBenchRows("api-mcp.json", [
  {
    name: "mcp_read_thread_ratio",
    value: round(read.ratio),
    unit: "ratio",
    target: ">= 0.7",
    pass: read.ratio >= 0.7,
  },
  {
    name: "mcp_create_thread_ratio",
    value: round(create.ratio),
    unit: "ratio",
    target: ">= 0.7",
    pass: create.ratio >= 0.7,
  },
]);
