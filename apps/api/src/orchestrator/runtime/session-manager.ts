import { setTimeout as sleep } from "node:timers/promises";
import type { ProviderKind, ProviderSessionId, SessionCommand } from "@skein/domain";
import {
  isConfiguredProviderId,
  PROVIDER_IDS,
  type ProviderAdapter,
  type ProviderSessionHandle,
  providerDisplayName,
  type RawEventSink,
  type ThreadSettings,
} from "@skein/domain/provider";
import type { Logger } from "../logger.ts";

/** How long shutdown waits for one provider runtime to close. */
const CLOSE_WITHIN_MS = 3_000;

/**
 * Where the manager records its runtimes' lives (the session aggregate's commands). Only that:
 * the manager runs processes and has no business with threads, runs or their streams.
 */
export type SessionJournal = (command: SessionCommand) => Promise<unknown>;

type LiveSession = {
  providerSessionId: ProviderSessionId;
  provider: ProviderKind;
  cwd: string;
  handle: ProviderSessionHandle;
  /** Native threads this runtime has started/resumed/forked; others need a resume first. */
  loadedThreads: Set<string>;
  activeTurns: number;
  lastUsedAt: number;
};

/**
 * B21: runtime memory bounded whatever the number of threads. A runtime keeps every native thread
 * it has loaded in memory (Codex holds each until its process exits), and threads with a folder
 * (or, where the adapter has no `threadEnv`, a PORT) of their own each have a runtime. So a
 * runtime that has loaded more than `maxLoadedThreads`, and the least recently used runtimes
 * beyond `maxRuntimes`, are closed once idle for `recycleIdleMs`; their threads are resumed from
 * their refs by the next runtime (R2).
 * A runtime in a turn is never closed.
 */
export type RuntimeLimits = {
  /** 0: never recycle for the thread count. */
  maxLoadedThreads: number;
  /** 0: no bound on live runtimes. */
  maxRuntimes: number;
  recycleIdleMs: number;
};

export const DEFAULT_RUNTIME_LIMITS: RuntimeLimits = {
  maxLoadedThreads: 64,
  maxRuntimes: 8,
  recycleIdleMs: 30_000,
};

/**
 * A runtime is in use while a turn runs on it, and while it has not answered a request: under
 * load a thread's start (Codex `thread/start`) can take longer than `recycleIdleMs`, and a
 * runtime closed meanwhile took every run starting or about to start a turn on it down with it
 * (send-load at 200 threads: 316 runs failed "codex app-server was killed by SIGKILL").
 */
function inUse(session: LiveSession): boolean {
  return session.activeTurns > 0 || (session.handle.requestsInFlight?.() ?? 0) > 0;
}

/** Not in use, and not handed to a run for `recycleIdleMs`: a runtime that may be closed. */
function rested(session: LiveSession, now: number, recycleIdleMs: number): boolean {
  return !inUse(session) && now - session.lastUsedAt >= recycleIdleMs;
}

/** Marks the key of a runtime that drains (at its thread limit; closed once idle). */
const DRAINING = "#draining:";

/** What the live runtimes hold now (metrics, benches). */
export type RuntimeStats = { runtimes: number; loadedThreads: number };

/**
 * Owns live provider runtimes: one per (provider, workspace). The persisted ProviderSession
 * (E8) is only metadata; a dead or reaped handle is replaced by a new session that resumes
 * native threads from their persisted refs (R2).
 */
export class SessionManager {
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, Promise<LiveSession>>();
  private reaper: NodeJS.Timeout | null = null;
  /**
   * Asks the other instances sharing the database to let go of a native thread (see
   * `releaseThread`); set by the orchestrator once it can reach them. Resolves true when one did.
   */
  askPeersToRelease: ((nativeThreadRef: string) => Promise<boolean>) | null = null;

  constructor(
    private readonly adapters: Partial<Record<ProviderKind, ProviderAdapter>>,
    private readonly record: SessionJournal,
    private readonly newSessionId: () => ProviderSessionId,
    private readonly log: Logger,
    private readonly rawLog: RawEventSink | undefined,
    private readonly idleMs = 10 * 60_000,
    /** This instance's id, recorded on the sessions it opens (recovery stops dead owners' ones). */
    readonly owner: string | null = null,
    private readonly limits: RuntimeLimits = DEFAULT_RUNTIME_LIMITS,
  ) {
    const bounded = limits.maxLoadedThreads > 0 || limits.maxRuntimes > 0;
    const every = [
      ...(idleMs > 0 ? [idleMs] : []),
      // A runtime is closed within a sixth of its rest time after it has rested that long, not
      // up to twice that (the bench touching 10,000 threads held 792 loaded against 512).
      ...(bounded ? [Math.max(1_000, limits.recycleIdleMs / 6)] : []),
    ];
    if (every.length > 0) {
      this.reaper = setInterval(() => void this.reapIdle(), Math.min(...every, 60_000));
      this.reaper.unref();
    }
  }

  stats(): RuntimeStats {
    let loadedThreads = 0;
    for (const session of this.live.values()) loadedThreads += session.loadedThreads.size;
    return { runtimes: this.live.size, loadedThreads };
  }

  adapter(provider: ProviderKind): ProviderAdapter | undefined {
    return this.adapters[provider];
  }

  /** Every built-in provider (run here or not), then the configured agents this server runs. */
  providerIds(): ProviderKind[] {
    return [...PROVIDER_IDS, ...Object.keys(this.adapters).filter(isConfiguredProviderId)];
  }

  /** The name a person knows the provider by (a configured agent's own `name`, B18). */
  displayName(provider: ProviderKind): string {
    return this.adapters[provider]?.displayName ?? providerDisplayName(provider);
  }

  /**
   * A live runtime for the provider in `cwd` with `env` added to its process environment (a
   * thread's PORT, issue 26), opening (and recording) one when needed. For an adapter with
   * `threadEnv` the variables go with each thread instead (ThreadSettings.env), so threads that
   * differ only in them share the folder's runtime.
   */
  async ensure(
    provider: ProviderKind,
    cwd: string,
    model: string | null,
    env?: Readonly<Record<string, string>>,
    /** The native thread the caller will use, when it has one: the runtime holding it is kept. */
    nativeThreadRef?: string | null,
  ): Promise<LiveSession> {
    // An adapter that gives each thread its own variables shares one runtime among them.
    const perThread = this.adapters[provider]?.threadEnv === true;
    const extra = env && Object.keys(env).length > 0 && !perThread ? env : undefined;
    const key = extra ? `${provider}|${cwd}|${JSON.stringify(extra)}` : `${provider}|${cwd}`;
    const holder = nativeThreadRef ? this.drainingHolder(key, nativeThreadRef) : undefined;
    if (holder) {
      holder.lastUsedAt = Date.now();
      return holder;
    }
    const current = this.live.get(key);
    if (current?.handle.isAlive()) {
      if (!this.full(current) || (nativeThreadRef && current.loadedThreads.has(nativeThreadRef))) {
        // A run about to start here: not idle, whatever its turn count says yet.
        current.lastUsedAt = Date.now();
        return current;
      }
      // B21: at its thread limit while in use, it drains: the turns it runs (or is starting)
      // go on there and it is closed once idle; threads new to it go to a new runtime, so the
      // threads loaded stay bounded while the server is busy, not only once it rests.
      this.live.delete(key);
      this.live.set(`${key}${DRAINING}${current.providerSessionId}`, current);
      this.log.info(
        { providerSessionId: current.providerSessionId, loadedThreads: current.loadedThreads.size },
        "provider session draining: at its thread limit",
      );
    } else if (current) {
      this.live.delete(key);
    }
    const pending = this.opening.get(key);
    if (pending) return pending;
    // A dead runtime is replaced: its session ends where the new one is recorded (`open`).
    const dead = current && !current.handle.isAlive() ? current.providerSessionId : null;
    const opening = this.open(provider, cwd, model, extra, dead).finally(() =>
      this.opening.delete(key),
    );
    this.opening.set(key, opening);
    const session = await opening;
    this.live.set(key, session);
    // One more runtime may take the live ones past their bound: the least recently used one
    // that has rested is closed now, not at the reaper's next pass.
    void this.closeBeyondBound(Date.now()).catch(() => undefined);
    return session;
  }

  /** At its thread limit: new threads go elsewhere. */
  private full(session: LiveSession): boolean {
    const { maxLoadedThreads } = this.limits;
    return maxLoadedThreads > 0 && session.loadedThreads.size >= maxLoadedThreads;
  }

  /** A draining runtime of `key` that still holds `nativeThreadRef` loaded (one writer per thread). */
  private drainingHolder(key: string, nativeThreadRef: string): LiveSession | undefined {
    for (const [liveKey, session] of this.live) {
      if (!liveKey.startsWith(`${key}${DRAINING}`)) continue;
      if (session.handle.isAlive() && session.loadedThreads.has(nativeThreadRef)) return session;
    }
    return undefined;
  }

  /**
   * A live runtime with the native thread loaded (R2): the runtime holding it, or one that
   * resumes it from its ref (its old runtime died, or this instance never loaded it).
   */
  async ensureLoaded(
    provider: ProviderKind,
    settings: ThreadSettings,
    nativeThreadRef: string,
  ): Promise<LiveSession> {
    const { cwd, model, env } = settings;
    const session = await this.ensure(provider, cwd, model ?? null, env, nativeThreadRef);
    if (!session.loadedThreads.has(nativeThreadRef)) {
      await session.handle.resumeThread(nativeThreadRef, settings);
      session.loadedThreads.add(nativeThreadRef);
    }
    return session;
  }

  /**
   * Opens and records a runtime, in this order: the dead runtime it replaces (if any) ends with
   * `error`, the new session is recorded before its process starts (recovery finds it should
   * this instance die meanwhile), then it is `ready`, or `error` with why it did not start.
   */
  private async open(
    provider: ProviderKind,
    cwd: string,
    model: string | null,
    env: Readonly<Record<string, string>> | undefined,
    replacing: ProviderSessionId | null,
  ): Promise<LiveSession> {
    if (replacing) await this.setStatus(replacing, "error", "provider runtime exited");
    const adapter = this.adapters[provider];
    if (!adapter) throw new Error(`provider ${provider} is not configured on this server`);
    const providerSessionId = this.newSessionId();
    await this.record({
      type: "OpenProviderSession",
      data: {
        providerSessionId,
        provider,
        cwd,
        model,
        capabilities: adapter.capabilities,
        owner: this.owner,
      },
    });
    try {
      const handle = await adapter.openSession({
        providerSessionId,
        cwd,
        model,
        rawLog: this.rawLog,
        ...(env ? { env } : {}),
      });
      await this.setStatus(providerSessionId, "ready", null);
      this.log.info({ provider, providerSessionId, cwd }, "provider session opened");
      return {
        providerSessionId,
        provider,
        cwd,
        handle,
        loadedThreads: new Set(),
        activeTurns: 0,
        lastUsedAt: Date.now(),
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.setStatus(providerSessionId, "error", message);
      throw error;
    }
  }

  /** Marks a turn running on the session (keeps it from being reaped). */
  begin(session: LiveSession): void {
    session.activeTurns += 1;
    session.lastUsedAt = Date.now();
  }

  end(session: LiveSession): void {
    session.activeTurns = Math.max(0, session.activeTurns - 1);
    session.lastUsedAt = Date.now();
  }

  findBySessionId(providerSessionId: string): LiveSession | undefined {
    for (const session of this.live.values()) {
      if (session.providerSessionId === providerSessionId) return session;
    }
    return undefined;
  }

  /**
   * Lets go of a native thread so another instance's runtime can resume it. A Codex thread has one
   * writer, held until the runtime that loaded it exits (unsubscribing keeps it loaded), so an idle
   * runtime holding it is stopped; its other threads are resumed from their refs when next used
   * (R2). A runtime in the middle of a turn is left alone.
   */
  async releaseThread(nativeThreadRef: string): Promise<"released" | "not_loaded" | "busy"> {
    let outcome: "released" | "not_loaded" | "busy" = "not_loaded";
    for (const [key, session] of this.live) {
      if (!session.loadedThreads.has(nativeThreadRef)) continue;
      if (session.handle.releaseThread) {
        // A runtime that can let go of one thread keeps serving its others (Claude: one CLI
        // process per conversation), even mid-turn on another thread.
        if (await session.handle.releaseThread(nativeThreadRef)) {
          session.loadedThreads.delete(nativeThreadRef);
          if (outcome === "not_loaded") outcome = "released";
        } else outcome = "busy";
        continue;
      }
      if (session.activeTurns > 0) {
        outcome = "busy";
        continue;
      }
      this.live.delete(key);
      await session.handle.close().catch(() => undefined);
      await this.setStatus(session.providerSessionId, "stopped", null);
      this.log.info(
        { providerSessionId: session.providerSessionId, nativeThreadRef },
        "provider session stopped to let another instance resume its thread",
      );
      if (outcome === "not_loaded") outcome = "released";
    }
    return outcome;
  }

  async reapIdle(now = Date.now()): Promise<void> {
    const { maxLoadedThreads, recycleIdleMs } = this.limits;
    for (const [key, session] of this.live) {
      if (inUse(session)) continue;
      if (this.idleMs > 0 && now - session.lastUsedAt >= this.idleMs) {
        await this.retire(key, session, "idle provider session reaped");
      } else if (
        ((maxLoadedThreads > 0 && session.loadedThreads.size > maxLoadedThreads) ||
          key.includes(DRAINING)) &&
        rested(session, now, recycleIdleMs)
      ) {
        await this.retire(key, session, "provider session recycled: too many threads loaded");
      }
    }
    await this.closeBeyondBound(now);
  }

  /** Beyond the bound on live runtimes, the least recently used that have rested are closed. */
  private async closeBeyondBound(now: number): Promise<void> {
    const { maxRuntimes, recycleIdleMs } = this.limits;
    if (maxRuntimes <= 0 || this.live.size <= maxRuntimes) return;
    const oldestFirst = [...this.live]
      .filter(([, session]) => rested(session, now, recycleIdleMs))
      .sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt);
    for (const [key, session] of oldestFirst) {
      if (this.live.size <= maxRuntimes) break;
      await this.retire(key, session, "provider session closed: more runtimes live than the bound");
    }
  }

  private async retire(key: string, session: LiveSession, why: string): Promise<void> {
    // Retired (or replaced) by another pass while an earlier close was awaited.
    if (this.live.get(key) !== session) return;
    this.live.delete(key);
    await session.handle.close().catch(() => undefined);
    await this.setStatus(session.providerSessionId, "stopped", null);
    this.log.info(
      { providerSessionId: session.providerSessionId, loadedThreads: session.loadedThreads.size },
      why,
    );
  }

  async closeAll(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    const sessions = [...this.live.values()];
    this.live.clear();
    await Promise.all(
      sessions.map(async (session) => {
        // A runtime that does not close in time is left to die with this process.
        await Promise.race([
          session.handle.close().catch(() => undefined),
          sleep(CLOSE_WITHIN_MS, undefined, { ref: false }),
        ]);
        await this.setStatus(session.providerSessionId, "stopped", null).catch(() => undefined);
      }),
    );
  }

  private async setStatus(
    providerSessionId: ProviderSessionId,
    status: "ready" | "stopped" | "error",
    lastError: string | null,
  ): Promise<void> {
    try {
      await this.record({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId, status, lastError },
      });
    } catch (error) {
      // A status the table refuses (e.g. stopped → stopped) is not worth failing a run over.
      this.log.debug({ providerSessionId, status, error }, "session status not recorded");
    }
  }
}

export type { LiveSession };
