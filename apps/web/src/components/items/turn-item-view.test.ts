import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiProvider } from "../../lib/api-context.tsx";
import { DebugProvider } from "../../lib/debug-mode.tsx";
import { QueryProvider } from "../../lib/query/query-provider.tsx";
import { ShellsProvider } from "../../lib/shells-store.tsx";
import type { PendingRequest, TurnItem } from "../../lib/types.ts";
import { TurnItemView } from "./turn-item-view.tsx";

const base = {
  threadId: "thr_a",
  runId: "run_1",
  runOrdinal: 1,
  nodeId: "nod_1",
  providerTurnId: null,
  nativeItemRef: null,
  provider: "codex",
  status: "completed",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
} as const;

/** One item of every P6 variant, as the API sends them. */
const ITEMS = [
  { ...base, id: "itm_1", type: "user_message", messageId: "msg_1", text: "hi", attachments: [] },
  {
    ...base,
    id: "itm_2",
    type: "assistant_message",
    messageId: "msg_2",
    text: "**bold** <b>x</b>",
  },
  { ...base, id: "itm_3", type: "reasoning", text: "thinking hard" },
  {
    ...base,
    id: "itm_4",
    type: "plan",
    planId: "pln_1",
    kind: "todo_list",
    planStatus: "active",
    steps: [{ id: "s1", text: "write tests", status: "running" }],
  },
  {
    ...base,
    id: "itm_5",
    type: "file_change",
    fileName: "src/a.ts",
    additions: 1,
    deletions: 1,
    diffStr: "@@ -1 +1 @@\n-old\n+new",
  },
  { ...base, id: "itm_6", type: "command_execution", input: "ls", output: "a.txt", exitCode: 2 },
  { ...base, id: "itm_7", type: "file_search", query: "*.ts", matches: ["a.ts"] },
  {
    ...base,
    id: "itm_8",
    type: "web_search",
    query: "skein",
    results: [
      { title: "ok", url: "https://example.com" },
      { title: "evil", url: "javascript:alert(1)" },
    ],
  },
  {
    ...base,
    id: "itm_9",
    type: "approval_request",
    status: "pending",
    requestId: "req_1",
    requestKind: "command",
    title: "Run rm -rf build",
    detail: "in /w",
    decision: null,
  },
  {
    ...base,
    id: "itm_10",
    type: "checkpoint",
    checkpointId: "ckp_1",
    action: "captured",
    appRunOrdinal: 1,
    files: [{ path: "a.ts", additions: 1, deletions: 0, status: "modified" }],
  },
  { ...base, id: "itm_11", type: "compaction", status: "running", title: "Compacting context..." },
  {
    ...base,
    id: "itm_12",
    type: "handoff",
    handoffId: "hnd_1",
    transferId: "ctx_1",
    strategy: "full_thread_summary",
    fromProviderThreadIds: ["pth_1"],
    toProviderThreadId: "pth_2",
    coveredRunOrdinals: { from: 1, to: 3 },
  },
  {
    ...base,
    id: "itm_13",
    type: "fork",
    transferId: "ctx_2",
    sourceThreadId: "thr_src",
    sourcePoint: {
      threadId: "thr_src",
      runId: "run_9",
      checkpointId: null,
      turnItemId: null,
      providerThreadRef: null,
      providerTurnRef: null,
    },
    relationship: "fork",
    title: "Forked from conversation",
  },
  { ...base, id: "itm_14", type: "dynamic_tool", toolName: "lookup", input: { q: 1 }, output: [2] },
] as unknown as TurnItem[];

const PENDING = {
  id: "req_1",
  kind: "command",
  title: "Run rm -rf build",
  answerable: false,
  responseCapability: { type: "not_resumable", reason: "the provider process restarted" },
} as unknown as PendingRequest;

function render(
  item: TurnItem,
  pending = new Map<string, PendingRequest>(),
  debug = false,
): string {
  const view = createElement(TurnItemView, { item, pendingRequests: pending });
  const withDebug = createElement(DebugProvider, { initial: debug }, view);
  const shells = createElement(ShellsProvider, null, withDebug);
  const queries = createElement(QueryProvider, null, shells);
  return renderToStaticMarkup(
    createElement(ApiProvider, { apiUrl: "http://127.0.0.1:1" }, queries),
  );
}

describe("turn item components", () => {
  it("renders every P6 variant with its own component", () => {
    const types = new Set<string>();
    for (const item of ITEMS) {
      const html = render(item);
      expect(html).toContain(`data-item-type="${item.type}"`);
      types.add(item.type);
    }
    expect(types.size).toBe(14);
  });

  it("shows what each variant is about", () => {
    const html = (id: string) => render(ITEMS.find((i) => i.id === id)!);
    expect(html("itm_2")).toContain("<strong>bold</strong>");
    expect(html("itm_2")).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(html("itm_3")).toMatch(/<details class="reasoning">/);
    expect(html("itm_5")).toContain('class="diff-line diff-add"');
    expect(html("itm_6")).toContain("exit 2");
    expect(html("itm_8")).toContain('href="https://example.com"');
    expect(html("itm_8")).not.toContain("javascript:");
    expect(html("itm_11")).toContain("Compacting context...");
    expect(html("itm_12")).toContain("runs 1–3");
    expect(html("itm_12")).toContain('href="/threads/thr_a/handoffs#ctx_1"');
    expect(html("itm_13")).toContain('href="/threads/thr_src"');
    expect(html("itm_14")).toContain("Input of lookup");
  });

  it("B8 B16: with debug details on, an item that came from provider frames has a folded 'raw' disclosure; others have none", () => {
    const item = ITEMS.find((i) => i.id === "itm_2")!;
    const rawFrames = { first: "raw-000001.jsonl:3", last: "raw-000001.jsonl:9" };
    expect(render({ ...item, rawFrames } as TurnItem)).not.toContain("raw-frames");
    const html = render({ ...item, rawFrames } as TurnItem, new Map(), true);
    expect(html).toMatch(/<details class="raw-frames" data-testid="raw-frames"><summary[^>]*>raw</);
    expect(html).not.toMatch(/<details class="raw-frames"[^>]* open/);
    expect(render(item)).not.toContain("raw-frames");
  });

  it("B16: a checkpoint that changed no file is plumbing: shown only with debug details on", () => {
    const item = ITEMS.find((i) => i.type === "checkpoint")!;
    const empty = { ...item, files: [] } as TurnItem;
    expect(render(empty)).toBe("");
    expect(render(empty, new Map(), true)).toContain("no file changes");
    expect(render(item)).toContain("1 file changed");
  });

  it("a pending approval that can no longer be answered says why", () => {
    const item = ITEMS.find((i) => i.type === "approval_request")!;
    const html = render(item, new Map([["req_1", PENDING]]));
    expect(html).toContain("Can no longer be answered: the provider process restarted");
    expect(html).not.toContain(">Accept<");
  });
});
