/**
 * What a provider runtime can do natively. The orchestrator and `packages/transfer` read these
 * flags to choose a strategy (e.g. native fork vs portable handoff) before any provider work, and
 * adapters guard every optional operation with {@link requireCapability}.
 */
export type ProviderCapabilityFlags = {
  /** Fork a provider thread natively (a new native thread sharing the source's history). */
  nativeFork: boolean;
  /** Native fork can stop at a given completed turn (not only the latest state). */
  forkAtTurn: boolean;
  /** Drop the turns after a given turn from a native thread in place. */
  rollback: boolean;
  /** Add user input to a running turn without restarting it. */
  steer: boolean;
  /** Interrupt a running turn. */
  interrupt: boolean;
  /** Reattach to a native thread after a process restart from its persisted ref. */
  resume: boolean;
  /** Native turn ids are stable, addressable refs (weak providers only have ordinals, E10). */
  strongTurnIds: boolean;
  /** The provider spawns child agents itself and reports their work (T9 native). */
  nativeSubagents: boolean;
  /** The provider can call tools the app defines (Skein's delegate tool, T9 cross-provider). */
  appOwnedTools: boolean;
  /** Portable context (a handoff) can be injected ahead of the user's message. */
  historyInjection: boolean;
  /** The provider asks the app before running commands / editing files. */
  approvals: boolean;
  /** The native history of a thread can be read back. */
  readHistory: boolean;
  /** B5: the provider proposes a plan instead of acting (`interactionMode: "plan"`). */
  planMode: boolean;
  /** A reasoning-effort level can be chosen per turn (`sendMessage` `effort`). */
  effort: boolean;
  /** B6: the person's own native threads for a folder can be listed and adopted (E9). */
  adoptSessions: boolean;
};

export type ProviderCapabilityName = keyof ProviderCapabilityFlags;

/** Each capability in words, for people (the README's table, provider.status). */
export const CAPABILITY_DESCRIPTIONS: Record<ProviderCapabilityName, string> = {
  nativeFork: "Fork a provider thread natively",
  forkAtTurn: "Native fork at an earlier turn, not only the latest state",
  rollback: "Drop later turns from a native thread in place",
  steer: "Add input to a running turn without restarting it",
  interrupt: "Interrupt a running turn",
  resume: "Resume a native thread after a restart",
  strongTurnIds: "Stable native turn ids",
  nativeSubagents: "The provider's own sub-agents are mapped",
  appOwnedTools: "Calls tools Skein defines (the delegate tool)",
  historyInjection: "Takes a handoff ahead of the user's message",
  approvals: "Asks before running commands or editing files",
  readHistory: "Its native history can be read back",
  planMode: "Plan mode: proposes a plan instead of acting",
  effort: "Reasoning effort chosen per message",
  adoptSessions: "Lists your own sessions for a folder so Skein can adopt them",
};

/** Every capability on: for test providers that stand in for a fully capable runtime. */
export function allCapabilities(): ProviderCapabilityFlags {
  return Object.fromEntries(
    Object.keys(CAPABILITY_DESCRIPTIONS).map((name) => [name, true]),
  ) as ProviderCapabilityFlags;
}

/** Thrown before any provider work when an operation needs a capability the provider lacks. */
export class CapabilityUnsupportedError extends Error {
  readonly code = "capability_unsupported" as const;
  constructor(
    readonly provider: string,
    readonly capability: ProviderCapabilityName | string,
    readonly operation: string,
    readonly detail?: string,
  ) {
    super(
      `${provider} does not support ${capability} (needed for ${operation})${detail ? `: ${detail}` : ""}`,
    );
    this.name = "CapabilityUnsupportedError";
  }
}

export function isCapabilityUnsupported(error: unknown): error is CapabilityUnsupportedError {
  return error instanceof CapabilityUnsupportedError;
}

/**
 * A native thread another runtime still holds (Codex lets one runtime write a thread): resuming
 * it here works once that runtime lets go of it.
 */
export class NativeThreadHeldError extends Error {
  readonly code = "native_thread_held" as const;
  constructor(
    readonly nativeThreadRef: string,
    detail: string,
  ) {
    super(`native thread ${nativeThreadRef} is held by another runtime: ${detail}`);
    this.name = "NativeThreadHeldError";
  }
}

/** Guard used by adapters at the top of an optional operation, before touching the runtime. */
export function requireCapability(
  provider: string,
  capabilities: ProviderCapabilityFlags,
  capability: ProviderCapabilityName,
  operation: string,
): void {
  if (!capabilities[capability]) {
    throw new CapabilityUnsupportedError(provider, capability, operation);
  }
}
