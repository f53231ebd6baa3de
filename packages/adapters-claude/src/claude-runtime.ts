import type { Options, PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { ClaudeSession } from "./claude-session.ts";
import type { ClaudeSessionStart } from "./session-start.ts";
import type { ClaudeConfig } from "./config.ts";
import type { PermissionHandler } from "./permissions.ts";
import { createProcessTracker, type ProcessTracker } from "./process-tracker.ts";
import type { RawEventSink } from "@skein/domain/provider";
import { setTranscriptAside } from "./transcripts.ts";

export type ClaudeRuntimeOptions = {
  config?: ClaudeConfig;
  /** The raw provider log (E18); without one, frames are not logged. */
  rawLog: RawEventSink | undefined;
  /** The app's ProviderSession id this runtime serves (written on raw frames). */
  providerSessionId: string;
};

/** Per-conversation settings used whenever the runtime (re)opens a session. */
export type ClaudeSessionSettings = {
  cwd: string;
  model?: string;
  permissionMode?: PermissionMode;
  permissions?: PermissionHandler;
  includePartialMessages?: boolean;
  sdkOptions?: Partial<Options>;
};

/**
 * The session manager for one ProviderSession: at most one live `ClaudeSession` (one process) per
 * native conversation, reopened with `resume` when its process has gone. Everything it holds can
 * be rebuilt from the native session ids the app persisted (E8).
 */
export class ClaudeRuntime {
  readonly processes: ProcessTracker = createProcessTracker();
  private readonly live = new Map<string, ClaudeSession>();

  constructor(private readonly options: ClaudeRuntimeOptions) {}

  get config(): ClaudeConfig {
    return this.options.config ?? {};
  }

  /** Processes spawned so far by this runtime. */
  get spawnCount(): number {
    return this.processes.spawnCount;
  }

  private open(start: ClaudeSessionStart, settings: ClaudeSessionSettings): ClaudeSession {
    const session = new ClaudeSession({
      ...settings,
      config: this.config,
      start,
      rawLog: this.options.rawLog,
      providerSessionId: this.options.providerSessionId,
      processes: this.processes,
    });
    this.live.set(session.sessionId, session);
    void session.ended.then(() => {
      if (this.live.get(session.sessionId) === session) this.live.delete(session.sessionId);
    });
    return session;
  }

  /** Starts a new native conversation; its id is known immediately. */
  startSession(settings: ClaudeSessionSettings, sessionId?: string): ClaudeSession {
    return this.open(sessionId ? { kind: "new", sessionId } : { kind: "new" }, settings);
  }

  /** The live session for a conversation, or a new process resuming it. */
  session(sessionId: string, settings: ClaudeSessionSettings): ClaudeSession {
    const live = this.live.get(sessionId);
    if (live && (live.state === "idle" || live.state === "running")) return live;
    return this.open({ kind: "resume", sessionId }, settings);
  }

  /** The live session for a conversation, without starting anything. */
  liveSession(sessionId: string): ClaudeSession | null {
    return this.live.get(sessionId) ?? null;
  }

  /**
   * Forks a conversation natively at transcript entry `at` (inclusive; omit for its latest
   * state). The fork is written when its first message is sent, so keep using this session.
   */
  forkSession(
    fromSessionId: string,
    at: string | null,
    settings: ClaudeSessionSettings,
    sessionId?: string,
  ): ClaudeSession {
    return this.open(
      {
        kind: "fork",
        fromSessionId,
        ...(at ? { at } : {}),
        ...(sessionId ? { sessionId } : {}),
      },
      settings,
    );
  }

  /**
   * Rolls a conversation back in place to entry `at`: closes its live process and reopens it cut
   * there. The cut becomes durable with the next message sent on the returned session.
   */
  async rewindSession(
    sessionId: string,
    at: string,
    settings: ClaudeSessionSettings,
  ): Promise<ClaudeSession> {
    await this.live.get(sessionId)?.close();
    return this.open({ kind: "resume", sessionId, rewindTo: at }, settings);
  }

  /**
   * Starts a conversation over under the same id: closes its live process and sets its transcript
   * aside. For a conversation whose only prompt the model refused (nothing else to keep).
   */
  async restartSession(sessionId: string, settings: ClaudeSessionSettings): Promise<ClaudeSession> {
    await this.live.get(sessionId)?.close();
    setTranscriptAside(this.config, sessionId);
    return this.open({ kind: "new", sessionId }, settings);
  }

  /** Closes sessions idle (no running turn) for at least `idleMs`. Returns how many it closed. */
  async reapIdle(idleMs: number, now = Date.now()): Promise<number> {
    const idle = [...this.live.values()].filter(
      (s) => s.state === "idle" && now - s.lastActivityAt >= idleMs,
    );
    await Promise.all(idle.map((s) => s.close()));
    return idle.length;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((s) => s.close()));
  }
}
