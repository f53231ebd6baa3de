export { AggregateRepository, type ExecuteResult } from "./aggregate-repository.ts";
export { DELEGATE_TOOL } from "./delegate-tool.ts";
export { type Logger, silentLogger } from "./logger.ts";
export { createOrchestrator, type Orchestrator, type OrchestratorOptions } from "./orchestrator.ts";
export type { OrchestratorCommands } from "./service-types.ts";
