import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type {
  ProviderAdapter,
  RuntimeEvent,
  RuntimeRequestAnswer,
  ThreadSettings,
  TurnHandle,
} from "@skein/domain/provider";
import type { CodexSession } from "../../src/session/codex-session.ts";
import { createCodexAdapter } from "../../src/codex-adapter.ts";
import {
  type CodexTestHome,
  createCodexTestHome,
  type FakeReply,
  type FakeResponsesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { createMemoryRawEventSink, type MemoryRawEventSink } from "@skein/adapter-kit/testing";
import { onTestFinished } from "vitest";

/** The adapter as the orchestrator uses it, against the real binary and the fake model. */
export class AdapterHarness {
  private readonly sessions: CodexSession[] = [];

  private constructor(
    readonly server: FakeResponsesServer,
    readonly home: CodexTestHome,
    readonly workdir: string,
    readonly sink: MemoryRawEventSink,
    readonly adapter: ProviderAdapter,
  ) {}

  static async start(script: FakeReply[] = []): Promise<AdapterHarness> {
    const server = await startFakeResponsesServer({ script });
    const home = await createCodexTestHome({ baseUrl: server.url, model: "gpt-5.5" });
    const workdir = await mkdtemp(path.join(tmpdir(), "skein-codex-adapter-"));
    const adapter = createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } });
    return new AdapterHarness(server, home, workdir, createMemoryRawEventSink(), adapter);
  }

  /** `start` for the running test, closed when the test finishes (passed or failed). */
  static async forTest(script: FakeReply[] = []): Promise<AdapterHarness> {
    const harness = await AdapterHarness.start(script);
    onTestFinished(() => harness.close());
    return harness;
  }

  settings(overrides: Partial<ThreadSettings> = {}): ThreadSettings {
    return { cwd: this.workdir, runtimeMode: "full-access", ...overrides };
  }

  async openSession(id = "pss_1"): Promise<CodexSession> {
    const session = (await this.adapter.openSession({
      providerSessionId: id,
      cwd: this.workdir,
      rawLog: this.sink,
    })) as CodexSession;
    this.sessions.push(session);
    return session;
  }

  /** Outgoing frames of one method, to prove what was (not) sent to Codex. */
  sent(method: string) {
    return this.sink.frames.filter((f) => f.direction === "outgoing" && f.method === method);
  }

  async close(): Promise<void> {
    for (const session of this.sessions) if (session.isAlive()) await session.close();
    await this.server.close();
    await this.home.remove();
    await rm(this.workdir, { recursive: true, force: true });
  }
}

/**
 * Drains a turn's events. `answer` is called for every opened request; its decision is sent
 * through the session, as the orchestrator would after asking the user.
 */
export async function collect(
  handle: TurnHandle,
  options: {
    session?: CodexSession;
    answer?: (event: Extract<RuntimeEvent, { type: "request.opened" }>) => RuntimeRequestAnswer;
    onEvent?: (event: RuntimeEvent) => void;
  } = {},
): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of handle.events) {
    events.push(event);
    options.onEvent?.(event);
    if (event.type === "request.opened" && options.answer && options.session) {
      await options.session.respondToRequest(event.requestRef, options.answer(event));
    }
  }
  return events;
}

export function completion(events: RuntimeEvent[]) {
  const done = events.filter((e) => e.type === "turn.completed");
  if (done.length !== 1) throw new Error(`expected one turn.completed, got ${done.length}`);
  return done[0] as Extract<RuntimeEvent, { type: "turn.completed" }>;
}

export function ofType<T extends RuntimeEvent["type"]>(events: RuntimeEvent[], type: T) {
  return events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);
}
