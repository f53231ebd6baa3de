import type { InitializeResponse } from "@agentclientprotocol/sdk";
import type { ProviderCapabilityFlags } from "@skein/domain/provider";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The ways an agent declares it can take a session back up after a restart. */
export type ResumeMethod = "session/load" | "session/resume" | null;

export function resumeMethodOf(initialize: InitializeResponse): ResumeMethod {
  const caps = initialize.agentCapabilities;
  if (caps?.loadSession) return "session/load";
  if (caps?.sessionCapabilities?.resume) return "session/resume";
  return null;
}

/** `session/fork` (an unstable ACP method) where the agent declares it. */
export function declaresFork(initialize: InitializeResponse): boolean {
  const session: unknown = initialize.agentCapabilities?.sessionCapabilities;
  return isRecord(session) && isRecord(session.fork);
}

/** `session/close` where the agent declares it. */
export function declaresClose(initialize: InitializeResponse): boolean {
  return Boolean(initialize.agentCapabilities?.sessionCapabilities?.close);
}

/**
 * What Skein can do with an ACP agent, from what it declared at `initialize` only. ACP has no
 * turn ids, no steering, no rollback and no way to read a session's history without replaying
 * it, so those stay off and Skein falls back to portable handoffs and replacement attempts.
 * `planMode` needs a session mode that plans; the caller knows that from the agent's modes.
 */
export function capabilitiesOf(
  initialize: InitializeResponse,
  options: { planMode: boolean },
): ProviderCapabilityFlags {
  return {
    nativeFork: declaresFork(initialize),
    // `session/fork` copies a session as it stands: there is no turn to fork at.
    forkAtTurn: false,
    rollback: false,
    steer: false,
    interrupt: true,
    resume: resumeMethodOf(initialize) !== null,
    strongTurnIds: false,
    nativeSubagents: false,
    appOwnedTools: false,
    historyInjection: true,
    approvals: true,
    readHistory: false,
    planMode: options.planMode,
    effort: false,
    adoptSessions: false,
  };
}
