/** Any Agent Client Protocol agent as a Skein provider, and Gemini CLI built on it. */
export { type AcpAdapterOptions, createAcpAdapter } from "./acp-adapter.ts";
export { AcpStartError } from "./acp-connection.ts";
export { AcpProviderSession } from "./acp-provider-session.ts";
export type { AcpAgentSpec, AcpModeMap } from "./agent-spec.ts";
export {
  createGeminiAdapter,
  GEMINI_CAPABILITIES,
  type GeminiConfig,
  geminiAgentSpec,
  resolveGeminiEntry,
} from "./gemini.ts";
export {
  type AcpAgentsConfig,
  type AgentConfigProblem,
  loadAcpAgents,
  parseAcpAgents,
} from "./agents-config.ts";
export {
  type ConfiguredAcpAdapters,
  configuredAcpAdapters,
  unavailableAdapter,
} from "./configured-agents.ts";
