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
};

export type ProviderCapabilityName = keyof ProviderCapabilityFlags;

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
