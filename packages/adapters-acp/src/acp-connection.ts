import { type ChildProcess, spawn } from "node:child_process";
import {
  type AnyMessage,
  type ClientApp,
  type ClientConnection,
  type InitializeResponse,
  ndJsonStream,
  PROTOCOL_VERSION,
  type Stream,
} from "@agentclientprotocol/sdk";
import { type SessionRawLog, withParentDeathSignal } from "@skein/adapter-kit";
import type { AcpAgentSpec } from "./agent-spec.ts";
import { frameOf } from "./raw-frames.ts";
import { pipeSink, pipeSource } from "./stdio-streams.ts";

/** What Skein offers an agent: file reads and writes inside the thread's folder, unless its spec
 * turns one off (see `AcpAgentSpec.clientFs`). */
export function clientCapabilitiesFor(spec: AcpAgentSpec) {
  return {
    fs: { readTextFile: true, writeTextFile: true, ...spec.clientFs },
    terminal: false,
  };
}

export type AcpConnection = {
  child: ChildProcess;
  connection: ClientConnection;
  initialize: InitializeResponse;
  /** The agent's last stderr lines, for errors in words. */
  stderrTail(): string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** An agent that failed to start, in words a person can act on. */
export class AcpStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AcpStartError";
  }
}

/** Taps a message stream so every frame in both directions reaches the raw log (E18). */
function loggedStream(stream: Stream, log: SessionRawLog): Stream {
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      log(frameOf(message, "outgoing"));
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        log(frameOf(message, "incoming"));
        controller.enqueue(message);
      },
    }),
  );
  return { writable, readable };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AcpStartError(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Starts the agent process, connects `app` to its stdio and runs `initialize`. Fails with an
 * AcpStartError in words when the command cannot start, the agent exits first, or it speaks
 * another protocol version; the process is then gone.
 */
export async function connectAgent(
  spec: AcpAgentSpec,
  app: ClientApp,
  options: { cwd: string; extraArgs?: readonly string[]; log: SessionRawLog },
): Promise<AcpConnection> {
  const args = [...(spec.args ?? []), ...(options.extraArgs ?? [])];
  const line = withParentDeathSignal(spec.command, args);
  const child = spawn(line.command, line.args, {
    cwd: options.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
  });
  const stderrTail = () => stderr.trim().split("\n").slice(-5).join("\n");
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once("error", (error) =>
      reject(new AcpStartError(`${spec.name}: cannot run ${spec.command}: ${error.message}`)),
    );
  });
  const exitedEarly = exited.then(({ code, signal }) => {
    const tail = stderrTail();
    throw new AcpStartError(
      `${spec.name} exited before answering initialize (${signal ?? `exit code ${code}`})${tail ? `: ${tail}` : ""}`,
    );
  });
  // Both race `initialize` below; unobserved, whichever loses would be an unhandled rejection.
  spawnFailed.catch(() => {});
  exitedEarly.catch(() => {});
  const stdin = child.stdin;
  const stdout = child.stdout;
  if (!stdin || !stdout) throw new AcpStartError(`${spec.name}: no stdio pipes`);
  stdin.on("error", () => {});
  const stream = ndJsonStream(pipeSink(stdin), pipeSource(stdout));
  const connection = app.connect(loggedStream(stream, options.log));
  try {
    const initialize: InitializeResponse = await withTimeout(
      Promise.race<InitializeResponse>([
        connection.agent.request("initialize", {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: clientCapabilitiesFor(spec),
          clientInfo: { name: "skein", version: "0.1.0" },
        }),
        spawnFailed,
        exitedEarly,
      ]),
      spec.startTimeoutMs ?? 60_000,
      `${spec.name}: initialize`,
    );
    if (initialize.protocolVersion !== PROTOCOL_VERSION) {
      throw new AcpStartError(
        `${spec.name} speaks ACP protocol version ${initialize.protocolVersion}; Skein speaks ${PROTOCOL_VERSION}`,
      );
    }
    return { child, connection, initialize, stderrTail, exited };
  } catch (error) {
    // A write to an agent that already quit fails first (EPIPE): its exit says more.
    const early = await Promise.race([exitedEarly.catch((e: unknown) => e), sleep(1_000)]);
    connection.close();
    child.kill("SIGKILL");
    if (early instanceof AcpStartError) throw early;
    if (error instanceof AcpStartError) throw error;
    throw new AcpStartError(
      `${spec.name}: initialize failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const STOP_GRACE_MS = 3_000;

async function exitedWithin(agent: AcpConnection, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = await Promise.race([agent.exited.then(() => true as const), timeout]);
  clearTimeout(timer);
  return done;
}

/**
 * Stops the agent the way an editor would: its stdin closes so it can save its sessions and
 * leave (Gemini CLI writes a session's record after the turn, so a kill right after a turn can
 * lose it), then SIGTERM, then SIGKILL, each after a bounded wait.
 */
export async function stopAgent(agent: AcpConnection): Promise<void> {
  const child = agent.child;
  const running = () => child.exitCode === null && child.signalCode === null;
  if (running()) {
    child.stdin?.end();
    if (!(await exitedWithin(agent, STOP_GRACE_MS)) && running()) {
      child.kill("SIGTERM");
      if (!(await exitedWithin(agent, STOP_GRACE_MS)) && running()) {
        child.kill("SIGKILL");
        await agent.exited;
      }
    }
  }
  agent.connection.close();
}
