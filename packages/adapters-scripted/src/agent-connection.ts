import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { type SessionRawLog, withParentDeathSignal } from "@skein/adapter-kit";

/** The runtime: the scripted agent program inside this package, run by the same node. */
export const AGENT_ENTRY = fileURLToPath(new URL("../runtime/scripted-agent.mjs", import.meta.url));

/** A frame the agent sent: a notification, its own request (an approval) or an answer. */
type Frame = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
};

export type AgentHandlers = {
  /** A notification (`item/delta`, `turn/completed`…), with its raw log pointer (E18). */
  notification(method: string, params: Record<string, unknown>, rawEventId?: string): void;
  /** The agent asks the client (`approval/request`); the answer goes back under `id`. */
  request(id: string | number, method: string, params: Record<string, unknown>): void;
  /** The process went away; every pending call has been rejected. */
  exited(words: string): void;
};

/**
 * The scripted agent's process and its line protocol (one JSON object a line, see the runtime's
 * header): calls with answers, notifications and the agent's own requests, each frame logged.
 */
export class AgentConnection {
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();
  private nextId = 0;
  private stderr = "";
  private alive = true;

  private constructor(
    private readonly child: ChildProcess,
    private readonly log: SessionRawLog,
    private readonly handlers: AgentHandlers,
  ) {}

  /** Starts the agent in `cwd` with `env` over the server's environment and says hello. */
  static async open(input: {
    cwd: string;
    env: Record<string, string | undefined>;
    log: SessionRawLog;
    handlers: AgentHandlers;
  }): Promise<{ connection: AgentConnection; version: string }> {
    const { command, args } = withParentDeathSignal(process.execPath, [AGENT_ENTRY]);
    const child = spawn(command, args, {
      cwd: input.cwd,
      env: input.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const connection = new AgentConnection(child, input.log, input.handlers);
    connection.attach();
    const hello = (await connection.call("initialize", {})) as { version: string };
    return { connection, version: hello.version };
  }

  private attach(): void {
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2_000);
    });
    createInterface({ input: this.child.stdout! }).on("line", (line) => this.receive(line));
    this.child.on("error", (error) =>
      this.gone(`the scripted agent did not start: ${error.message}`),
    );
    this.child.on("exit", (code, signal) =>
      this.gone(`the scripted agent exited (${signal ?? `code ${code}`})${this.stderrTail()}`),
    );
  }

  private stderrTail(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" / ");
    return tail ? `: ${tail}` : "";
  }

  private receive(line: string): void {
    if (line.trim() === "") return;
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      // Not a frame (a stray print): kept for the diagnosis, never taken for protocol.
      this.log({
        direction: "incoming",
        messageKind: "error",
        method: null,
        jsonRpcId: null,
        payload: line,
      });
      return;
    }
    const kind = frame.method ? (frame.id === undefined ? "notification" : "request") : "response";
    const rawEventId = this.log({
      direction: "incoming",
      messageKind: frame.error ? "error" : kind,
      method: frame.method ?? null,
      jsonRpcId: frame.id ?? null,
      payload: frame,
    });
    if (kind === "notification") {
      this.handlers.notification(frame.method!, frame.params ?? {}, rawEventId);
    } else if (kind === "request")
      this.handlers.request(frame.id!, frame.method!, frame.params ?? {});
    else {
      const waiting = this.pending.get(Number(frame.id));
      this.pending.delete(Number(frame.id));
      if (frame.error) waiting?.reject(new Error(frame.error.message));
      else waiting?.resolve(frame.result);
    }
  }

  private write(frame: Frame, messageKind: "request" | "response"): void {
    this.log({
      direction: "outgoing",
      messageKind,
      method: frame.method ?? null,
      jsonRpcId: frame.id ?? null,
      payload: frame,
    });
    this.child.stdin?.write(`${JSON.stringify(frame)}\n`);
  }

  /** Calls `method` and resolves with its result; rejects with the agent's words. */
  call(method: string, params: Record<string, unknown>): Promise<unknown> {
    if (!this.alive) return Promise.reject(new Error("the scripted agent is not running"));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ id, method, params }, "request");
    });
  }

  /** Answers the agent's own request `id`. */
  answer(id: string | number, result: unknown): void {
    if (this.alive) this.write({ id, result }, "response");
  }

  isAlive(): boolean {
    return this.alive;
  }

  /** Closes stdin (the agent's cue to stop) and waits for the process to end. */
  async close(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private gone(words: string): void {
    if (!this.alive) return;
    this.alive = false;
    for (const waiting of this.pending.values()) waiting.reject(new Error(words));
    this.pending.clear();
    this.handlers.exited(words);
  }
}
