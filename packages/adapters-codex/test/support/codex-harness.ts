import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CodexAppServerClient,
  type NotificationEnvelope,
} from "../../src/rpc/app-server-client.ts";
import type { IncomingServerRequest } from "../../src/rpc/server-requests.ts";
import { resolveCodexConfig } from "../../src/config/codex-config.ts";
import type { ThreadStartParams, Turn, TurnStartParams } from "../../src/protocol/index.ts";
import {
  type CodexTestHome,
  createCodexTestHome,
  type FakeReply,
  type FakeResponsesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { createMemoryRawEventSink, type MemoryRawEventSink } from "@skein/adapter-kit/testing";
import { onTestFinished } from "vitest";
import { NotificationLog } from "./notification-log.ts";

export type TurnResult = {
  turn: Turn;
  /** This turn's notifications, from `turn/start` through `turn/completed`. */
  notifications: NotificationEnvelope[];
};

/**
 * One fake model server, one temporary CODEX_HOME and workspace, and the real app-server process
 * talking to them. `restart()` replaces the process but keeps home, workspace and server, which is
 * how a crash or a Skein restart looks to Codex.
 */
export class CodexHarness {
  readonly log = new NotificationLog();
  readonly serverRequests: IncomingServerRequest[] = [];
  private current: CodexAppServerClient | null = null;
  private onRequest: ((request: IncomingServerRequest) => void) | null = null;
  private requestWaiters: Array<() => void> = [];

  private constructor(
    readonly server: FakeResponsesServer,
    readonly home: CodexTestHome,
    readonly workdir: string,
    readonly sink: MemoryRawEventSink,
  ) {}

  static async start(
    options: { script?: FakeReply[]; features?: Record<string, boolean> } = {},
  ): Promise<CodexHarness> {
    const server = await startFakeResponsesServer({ script: options.script ?? [] });
    const home = await createCodexTestHome({
      baseUrl: server.url,
      model: "gpt-5.5",
      ...(options.features ? { features: options.features } : {}),
    });
    const workdir = await mkdtemp(path.join(tmpdir(), "skein-codex-work-"));
    const harness = new CodexHarness(server, home, workdir, createMemoryRawEventSink());
    await harness.restart();
    return harness;
  }

  /** `start` for the running test, closed when the test finishes (passed or failed). */
  static async forTest(options?: Parameters<typeof CodexHarness.start>[0]): Promise<CodexHarness> {
    const harness = await CodexHarness.start(options);
    onTestFinished(() => harness.close());
    return harness;
  }

  get client(): CodexAppServerClient {
    if (!this.current) throw new Error("harness has no client");
    return this.current;
  }

  /** Handles server→client requests (approvals); unhandled ones are only recorded. */
  handleServerRequests(handler: (request: IncomingServerRequest) => void): void {
    this.onRequest = handler;
  }

  /** Resolves with the n-th (0-based) server→client request once it has arrived. */
  async waitForServerRequest(index = 0, timeoutMs = 15_000): Promise<IncomingServerRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const request = this.serverRequests[index];
      if (request) return request;
      if (Date.now() > deadline) throw new Error(`no server request #${index} in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.requestWaiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async restart(): Promise<CodexAppServerClient> {
    if (this.current?.alive) await this.current.close();
    const config = resolveCodexConfig({ codexHome: this.home.dir, env: { RUST_LOG: "error" } });
    const client = await CodexAppServerClient.start({
      config,
      providerSessionId: "pss_test",
      rawLog: this.sink,
      cwd: this.workdir,
      onServerRequest: (request) => {
        this.serverRequests.push(request);
        this.onRequest?.(request);
        for (const wake of this.requestWaiters.splice(0)) wake();
      },
    });
    this.log.attach(client);
    this.current = client;
    return client;
  }

  async startThread(params: Partial<ThreadStartParams> = {}) {
    const { thread } = await this.client.request("thread/start", { cwd: this.workdir, ...params });
    return thread;
  }

  /** Starts a turn and waits for its `turn/completed`. */
  async runTurn(
    threadId: string,
    text: string,
    params: Partial<TurnStartParams> = {},
  ): Promise<TurnResult> {
    const from = this.log.size;
    const { turn } = await this.startTurn(threadId, text, params);
    return this.waitForTurn(turn.id, from);
  }

  startTurn(threadId: string, text: string, params: Partial<TurnStartParams> = {}) {
    return this.client.request("turn/start", {
      threadId,
      input: [{ type: "text", text, text_elements: [] }],
      ...params,
    });
  }

  async waitForTurn(turnId: string, from = 0): Promise<TurnResult> {
    const done = await this.log.waitFor(
      (n) => n.method === "turn/completed" && n.params.turn.id === turnId,
      { from },
    );
    if (done.method !== "turn/completed") throw new Error("unreachable");
    const notifications = this.log
      .since(from)
      .filter((n) => !("turnId" in n.params) || n.params.turnId === turnId);
    return { turn: done.params.turn, notifications };
  }

  async close(): Promise<void> {
    if (this.current?.alive) await this.current.close();
    await this.server.close();
    await this.home.remove();
    await rm(this.workdir, { recursive: true, force: true });
  }
}
