import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  createCodexTestHome,
  responsesTextReply,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { spawnEntry } from "./support/child-server.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { Recorder } from "./support/recorder.ts";
import { useCleanups } from "./support/cleanups.ts";

const { cleanups, dir: scratch } = useCleanups();

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The Prometheus text format's sample lines, parsed. */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-z_]+)="([^"]*)"/gi)) {
      labels[pair[1]!] = pair[2]!;
    }
    out.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return out;
}

function sum(all: Sample[], name: string, labels: Record<string, string> = {}): number {
  return all
    .filter((s) => s.name === name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  events?: { name: string }[];
};

/** A stand-in OpenTelemetry collector: keeps every span POSTed to /v1/traces (OTLP/HTTP JSON). */
async function startCollector(): Promise<{ url: string; spans: OtlpSpan[]; close(): void }> {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const payload = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resource of payload.resourceSpans) {
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => server.close() };
}

describe("B11: operations — Prometheus /metrics and OpenTelemetry traces (real Codex app-server)", () => {
  it("B11: metrics count appends, runs, provider latency, subscribers (token-guarded); spans nest command → decide+append and cover the provider turn", async () => {
    const collector = await startCollector();
    cleanups.push(() => collector.close());
    const model = await startFakeResponsesServer({ defaultReply: responsesTextReply("done") });
    cleanups.push(() => model.close());
    const home = await createCodexTestHome({ baseUrl: model.url, model: "gpt-5.5" });
    cleanups.push(() => home.remove());
    const token = "metrics-test-token";
    const server = spawnEntry("src/main.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: scratch("skein-metrics-data-"),
      SKEIN_API_TOKEN: token,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      CODEX_HOME: home.dir,
      RUST_LOG: "error",
    });
    cleanups.push(async () => {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await server.exited;
    });
    await server.ready;
    const scrape = async () => {
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      return samples(await res.text());
    };

    const refused = await fetch(`${server.url}/metrics`);
    expect(refused.status).toBe(401);
    const before = await scrape();
    expect(sum(before, "skein_events_appended_total")).toBe(0);
    expect(sum(before, "skein_process_resident_memory_bytes")).toBeGreaterThan(0);
    const idleSubscribers = sum(before, "skein_subscribers");
    expect(sum(before, "skein_provider_runtimes")).toBe(0);
    expect(sum(before, "skein_provider_loaded_threads")).toBe(0);

    const client = createSkeinClient({ url: server.url, token });
    const workspaceRoot = scratch("skein-metrics-ws-");
    const { projectId } = await client.project.create.mutate({ name: "m", workspaceRoot });
    const { threadId } = await client.thread.create.mutate({ projectId });
    const { runId } = await client.thread.sendMessage.mutate({ threadId, text: "hello" });
    await eventually(async () => {
      const { runs, checkpoints } = await client.thread.detail.query({ threadId });
      expect(runs.find((r) => r.id === runId)?.status).toBe("completed");
      expect(checkpoints.some((c) => c.runId === runId)).toBe(true);
    }, 60_000);

    const recorder = new Recorder<unknown>();
    const watch = client.thread.watchShells.subscribe(undefined, recorder.handlers);
    await recorder.until(() => recorder.snapshots.length === 1);
    const after = await eventually(async () => {
      const all = await scrape();
      // Every event of the log so far was counted once, by its type (the log started empty).
      expect(sum(all, "skein_events_appended_total")).toBe(
        sum(all, "skein_event_log_head_sequence"),
      );
      return all;
    });
    expect(sum(after, "skein_events_appended_total", { type: "RunFinished" })).toBe(1);
    expect(sum(after, "skein_runs", { status: "completed" })).toBe(1);
    expect(sum(after, "skein_runs", { status: "running" })).toBe(0);
    expect(sum(after, "skein_subscribers")).toBe(idleSubscribers + 1);
    // B21: the runtime that ran the turn, holding that one thread.
    expect(sum(after, "skein_provider_runtimes")).toBe(1);
    expect(sum(after, "skein_provider_loaded_threads")).toBe(1);
    const timedCall = { provider: "codex", outcome: "ok" };
    expect(
      sum(after, "skein_provider_request_seconds_count", { ...timedCall, op: "openSession" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sum(after, "skein_provider_request_seconds_count", { ...timedCall, op: "startTurn" }),
    ).toBe(1);
    expect(sum(after, "skein_provider_first_event_seconds_count", { provider: "codex" })).toBe(1);
    expect(
      sum(after, "skein_provider_first_event_seconds_sum", { provider: "codex" }),
    ).toBeGreaterThan(0);

    // Traces: the message's command span holds its decide+append span; the provider's calls and
    // the turn (with its runtime events) arrive as spans of the same export.
    const spans = await eventually(() => {
      const names = collector.spans.map((s) => s.name);
      expect(names).toContain("command thread.sendMessage");
      expect(names).toContain("provider turn");
      return collector.spans;
    }, 20_000);
    const send = spans.find((s) => s.name === "command thread.sendMessage")!;
    const children = spans.filter((s) => s.parentSpanId === send.spanId).map((s) => s.name);
    expect(children).toContain("decide+append QueueRun");
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(["provider openSession", "provider startTurn"]),
    );
    const turn = spans.find((s) => s.name === "provider turn")!;
    expect(turn.events?.map((e) => e.name)).toContain("turn.completed");

    watch.unsubscribe();
    await eventually(async () => {
      expect(sum(await scrape(), "skein_subscribers")).toBe(idleSubscribers);
    });
  }, 90_000);
});
