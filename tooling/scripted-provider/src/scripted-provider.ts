import {
  allCapabilities,
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
  type ProviderId,
} from "@skein/domain/provider";
import { NativeStore } from "./native-store.ts";
import { echoReply, type ReplyFn, type ScriptStep } from "./script.ts";
import { ScriptedSession } from "./scripted-session.ts";

export const FULL_CAPABILITIES: ProviderCapabilityFlags = allCapabilities();

export type ScriptedCall = { op: string; args: unknown };

export type ScriptedProvider = ProviderAdapter & {
  /** Every call made on the provider and its sessions, in order. */
  readonly calls: ScriptedCall[];
  readonly sessions: ScriptedSession[];
  /** Scripts for the next turns, used before the default reply. */
  enqueue(...turns: ScriptStep[][]): void;
  /** Makes the next N resume / native fork calls fail (forces fallback paths). */
  failNext(op: "resume" | "fork", count?: number): void;
  /** Kills every live session, as a crashed provider process would die. */
  killAll(): void;
};

/**
 * In-memory provider for tests: implements the adapter contract with configurable capabilities,
 * scripted turns and a record of every call, so each orchestration path can be forced.
 */
export function createScriptedProvider(
  options: {
    provider?: ProviderId;
    capabilities?: Partial<ProviderCapabilityFlags>;
    reply?: ReplyFn;
  } = {},
): ScriptedProvider {
  const provider = options.provider ?? "codex";
  const capabilities = { ...FULL_CAPABILITIES, ...options.capabilities };
  const store = new NativeStore();
  const calls: ScriptedCall[] = [];
  const sessions: ScriptedSession[] = [];
  const queued: ScriptStep[][] = [];
  const failures = { resume: 0, fork: 0 };
  const reply = options.reply ?? echoReply;
  const hooks = {
    record: (op: string, args: unknown) => calls.push({ op, args }),
    nextScript: (context: Parameters<ReplyFn>[0]) => queued.shift() ?? reply(context),
    failures,
  };

  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider,
    capabilities,
    calls,
    sessions,
    async openSession(input) {
      calls.push({
        op: "openSession",
        args: {
          providerSessionId: input.providerSessionId,
          cwd: input.cwd,
          ...(input.env ? { env: input.env } : {}),
        },
      });
      const session = new ScriptedSession(
        input.providerSessionId,
        provider,
        capabilities,
        store,
        hooks,
      );
      sessions.push(session);
      return session;
    },
    async status() {
      return { found: true, version: "scripted-1", ready: true, lastError: null };
    },
    enqueue(...turns) {
      queued.push(...turns);
    },
    failNext(op, count = 1) {
      failures[op] += count;
    },
    killAll() {
      for (const session of sessions) if (session.isAlive()) session.kill();
    },
  };
}
