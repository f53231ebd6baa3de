import { isProviderId, type ProviderId } from "@skein/domain/provider";

/**
 * Which of the agent's session modes carries each of Skein's modes. Agents name their modes
 * themselves (Gemini CLI: `default`, `autoEdit`, `yolo`, `plan`); a mode left out is not set,
 * and in full access the adapter then answers the agent's permission requests itself.
 */
export type AcpModeMap = {
  approvalRequired?: string;
  fullAccess?: string;
  plan?: string;
};

/** How to start one ACP agent and what to call it. */
export type AcpAgentSpec = {
  /** The provider id Skein knows it by (`gemini`, or an id from `SKEIN_ACP_AGENTS`). */
  id: string;
  /** Its name for people. */
  name: string;
  /** The executable, and its arguments (the agent speaks ACP on stdio). */
  command: string;
  args?: readonly string[];
  /** Added to (and overriding) the server's own environment for the agent process. */
  env?: Record<string, string>;
  /** Session mode ids for Skein's modes; absent: guessed from the modes the agent offers. */
  modes?: AcpModeMap;
  /** Extra arguments that pick a model at start (e.g. `["--model", m]`); absent: none. */
  modelArgs?: (model: string) => readonly string[];
  /**
   * File requests Skein answers for the agent (default: reads and writes). One turned off is not
   * offered at `initialize`, and the agent uses its own file access for it.
   */
  clientFs?: { readTextFile?: boolean; writeTextFile?: boolean };
  /** How long to wait for the agent to answer `initialize` (default 60 s). */
  startTimeoutMs?: number;
};

/**
 * The id an agent's adapter reports as its provider: a built-in id (`gemini`) or a configured
 * agent's (B18). The configuration is read before any adapter is made, so a malformed id here is
 * a bug in the caller, not the person's mistake.
 */
export function agentProviderId(spec: AcpAgentSpec): ProviderId {
  if (!isProviderId(spec.id)) throw new TypeError(`not a provider id: ${JSON.stringify(spec.id)}`);
  return spec.id;
}
