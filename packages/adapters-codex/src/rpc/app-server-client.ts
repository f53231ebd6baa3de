import type { ResolvedCodexConfig } from "../config/codex-config.ts";
import type {
  ClientInfo,
  ClientMethod,
  ClientNotification,
  ClientParams,
  ClientResult,
  InitializeResponse,
  RequestId,
  ServerNotification,
} from "../protocol/index.ts";
import { AppServerProcess } from "./app-server-process.ts";
import { AsyncQueue } from "@skein/adapter-kit";
import { Slots } from "@skein/concurrency";
import {
  CodexProcessExitedError,
  CodexRequestTimeoutError,
  CodexRpcError,
  type ProcessExit,
} from "./errors.ts";
import { type IncomingFrame, parseFrame } from "./frames.ts";
import type { RawEventSink } from "./raw-event-sink.ts";
import { RawFrameLogger } from "./raw-frame-logger.ts";
import {
  isServerRequestMethod,
  type ServerRequestHandler,
  ServerRequestTracker,
} from "./server-requests.ts";

/** A notification as delivered to listeners, with its pointer into the raw log. */
export type NotificationEnvelope = ServerNotification & { rawEventId: string | null };

export type AppServerClientOptions = {
  config: Pick<ResolvedCodexConfig, "binaryPath" | "env">;
  /** App-assigned ProviderSession id, stamped on every raw frame. */
  providerSessionId: string;
  rawLog?: RawEventSink;
  cwd?: string;
  args?: readonly string[];
  clientInfo?: ClientInfo;
  /** Per-request timeout unless overridden per call. */
  requestTimeoutMs?: number;
  /** Receives server→client requests; without one they are refused so Codex never hangs. */
  onServerRequest?: ServerRequestHandler;
  onStderr?: (chunk: string) => void;
  /** Notification methods Codex should not send on this connection (saves parsing noise). */
  optOutNotificationMethods?: string[];
};

type Pending = {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

/**
 * Requests that load a thread into the runtime: sent at most `MAX_THREAD_OPENS` at once, the rest
 * wait here. Codex answers them one after another, each slower the more threads the runtime
 * holds (measured: ~10 ms at first, ~0.5 s past 100 loaded threads), so 200 sent at once left the
 * last past their 60 s timeout; held here, each request's timeout measures the runtime answering it.
 */
const THREAD_OPENS: ReadonlySet<string> = new Set(["thread/start", "thread/resume", "thread/fork"]);
const MAX_THREAD_OPENS = 4;

const DEFAULT_CLIENT_INFO: ClientInfo = { name: "skein", title: "Skein", version: "0.1.0" };
const METHOD_NOT_FOUND = -32601;

/**
 * JSON-RPC over the stdio of one `codex app-server` process: request/response correlation,
 * notifications fanned out to listeners, server requests handed to a handler that may answer
 * later, every frame mirrored into the raw log, and a typed failure for everything pending when
 * the process dies.
 */
export class CodexAppServerClient {
  private readonly process: AppServerProcess;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly threadOpens = new Slots(MAX_THREAD_OPENS);
  private readonly listeners = new Set<(n: NotificationEnvelope) => void>();
  private readonly exitListeners = new Set<(exit: ProcessExit) => void>();
  private readonly serverRequests: ServerRequestTracker;
  private readonly rawLog: RawFrameLogger;
  private serverRequestHandler: ServerRequestHandler | undefined;
  private nextId = 1;
  private initializeResult: InitializeResponse | null = null;

  private constructor(private readonly options: AppServerClientOptions) {
    this.serverRequestHandler = options.onServerRequest;
    this.rawLog = new RawFrameLogger(options.rawLog, options.providerSessionId);
    this.serverRequests = new ServerRequestTracker((id, body) => this.send({ id, ...body }));
    const spawnOptions = {
      binaryPath: options.config.binaryPath,
      env: options.config.env,
      onLine: (line: string) => this.receive(line),
      onExit: (exit: ProcessExit) => this.handleExit(exit),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.args === undefined ? {} : { args: options.args }),
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    };
    this.process = new AppServerProcess(spawnOptions);
  }

  /** Spawns the process and completes the `initialize` / `initialized` handshake. */
  static async start(options: AppServerClientOptions): Promise<CodexAppServerClient> {
    const client = new CodexAppServerClient(options);
    try {
      client.initializeResult = await client.request("initialize", {
        clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
        capabilities: {
          experimentalApi: true,
          requestAttestation: false,
          optOutNotificationMethods: options.optOutNotificationMethods ?? null,
        },
      });
      client.notify("initialized");
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  get initialized(): InitializeResponse {
    if (!this.initializeResult) throw new Error("codex app-server is not initialized");
    return this.initializeResult;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  /** Requests sent and not answered (nor timed out) yet, and thread opens waiting to be sent. */
  get pendingRequests(): number {
    return this.pending.size + this.threadOpens.counts().waiting;
  }

  get exit(): ProcessExit | null {
    return this.process.exit;
  }

  get exited(): Promise<ProcessExit> {
    return this.process.exited;
  }

  request<M extends ClientMethod>(
    method: M,
    params: ClientParams<M>,
    options: { timeoutMs?: number } = {},
  ): Promise<ClientResult<M>> {
    if (!THREAD_OPENS.has(method)) return this.requestNow(method, params, options);
    return this.threadOpens
      .run(() => this.requestNow(method, params, options))
      .catch((error) => {
        // A thread open the runtime did not answer: the ones waiting behind it would not be either.
        if (error instanceof CodexRequestTimeoutError) this.threadOpens.failWaiting(error);
        throw error;
      });
  }

  private requestNow<M extends ClientMethod>(
    method: M,
    params: ClientParams<M>,
    options: { timeoutMs?: number },
  ): Promise<ClientResult<M>> {
    const exit = this.process.exit;
    if (exit) return Promise.reject(new CodexProcessExitedError(exit, method));
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 60_000;
    return new Promise<ClientResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CodexRequestTimeoutError(method, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        // The generated result type for `method` is the contract for what Codex answers.
        resolve: (result) => resolve(result as ClientResult<M>),
        reject,
        timer,
      });
      this.send(params === undefined ? { id, method } : { id, method, params });
    });
  }

  notify(method: ClientNotification["method"]): void {
    this.send({ method });
  }

  /** Listens to every notification; returns the unsubscribe function. */
  onNotification(listener: (notification: NotificationEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Notifications as an async stream from now on. It ends on `close()` of the subscription or of
   * the client, and throws `CodexProcessExitedError` if the process dies unexpectedly.
   */
  notifications(): AsyncIterable<NotificationEnvelope> & { close(): void } {
    const queue = new AsyncQueue<NotificationEnvelope>();
    const off = this.onNotification((n) => queue.push(n));
    const offExit = this.onExit((exit) => {
      off();
      queue.end(exit.expected ? undefined : new CodexProcessExitedError(exit));
    });
    return {
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
      close: () => {
        off();
        offExit();
        queue.end();
      },
    };
  }

  setServerRequestHandler(handler: ServerRequestHandler | undefined): void {
    this.serverRequestHandler = handler;
  }

  onExit(listener: (exit: ProcessExit) => void): () => void {
    const exit = this.process.exit;
    if (exit) {
      queueMicrotask(() => listener(exit));
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Graceful stop: EOF on stdin, then escalating signals. Pending requests are rejected. */
  close(graceMs?: number): Promise<ProcessExit> {
    return this.process.stop(graceMs);
  }

  /** Kills the process as an outside event would (the exit is reported as unexpected). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.process.kill(signal);
  }

  private send(frame: Record<string, unknown> & { id?: RequestId; method?: string }): void {
    this.rawLog.outgoing(frame);
    if (!this.process.write(JSON.stringify(frame)) && frame.method && frame.id !== undefined) {
      const exit = this.process.exit;
      if (exit) this.rejectPending(frame.id, new CodexProcessExitedError(exit, frame.method));
    }
  }

  private receive(line: string): void {
    const { frame, payload } = parseFrame(line);
    const rawEventId = this.rawLog.incoming(frame, payload);
    if (frame.kind === "response" || frame.kind === "error") this.settle(frame);
    else if (frame.kind === "notification") {
      this.dispatchNotification(frame.method, frame.params, rawEventId);
    } else if (frame.kind === "request") {
      this.dispatchServerRequest(frame.id, frame.method, frame.params, rawEventId);
    }
  }

  private settle(frame: Extract<IncomingFrame, { kind: "response" | "error" }>): void {
    if (frame.id === null) return;
    const pending = this.pending.get(frame.id);
    if (!pending) return;
    this.pending.delete(frame.id);
    clearTimeout(pending.timer);
    if (frame.kind === "response") pending.resolve(frame.result);
    else pending.reject(new CodexRpcError(pending.method, frame.error));
  }

  private dispatchNotification(method: string, params: unknown, rawEventId: string | null): void {
    if (method === "serverRequest/resolved" && isRecord(params)) {
      const id = params.requestId;
      if (typeof id === "string" || typeof id === "number") this.serverRequests.withdraw(id);
    }
    // Notifications come from the pinned binary whose generated union describes them.
    const envelope = { method, params, rawEventId } as NotificationEnvelope;
    for (const listener of this.listeners) listener(envelope);
  }

  private dispatchServerRequest(
    id: RequestId,
    method: string,
    params: unknown,
    rawEventId: string | null,
  ): void {
    const handler = this.serverRequestHandler;
    if (!handler || !isServerRequestMethod(method)) {
      this.send({
        id,
        error: { code: METHOD_NOT_FOUND, message: `skein cannot handle ${method}` },
      });
      return;
    }
    handler(this.serverRequests.create(method, id, params, rawEventId));
  }

  private handleExit(exit: ProcessExit): void {
    for (const id of [...this.pending.keys()]) {
      const pending = this.pending.get(id);
      this.rejectPending(id, new CodexProcessExitedError(exit, pending?.method ?? null));
    }
    this.serverRequests.orphanAll();
    for (const listener of this.exitListeners) listener(exit);
    this.exitListeners.clear();
  }

  private rejectPending(id: RequestId, error: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
