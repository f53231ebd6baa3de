export { AggregateRepository, type ExecuteResult } from "./commands/aggregate-repository.ts";
export { DELEGATE_TOOL } from "./runtime/delegate-tool.ts";
export {
  DEFAULT_RUNTIME_LIMITS,
  type RuntimeLimits,
  type RuntimeStats,
} from "./runtime/session-manager.ts";
export { type Logger, silentLogger } from "./logger.ts";
export { createOrchestrator, type Orchestrator, type OrchestratorOptions } from "./orchestrator.ts";
export type { OrchestratorCommands } from "@skein/contract";
