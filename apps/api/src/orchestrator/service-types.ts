import type {
  CheckpointId,
  ContextHandoffId,
  ContextTransferId,
  ProjectId,
  ProviderKind,
  RequestAnswers,
  RequestDecision,
  RunId,
  RuntimeMode,
  RuntimeRequestId,
  ThreadId,
} from "@skein/domain";

/**
 * What the API (and other in-process callers) may ask of the orchestrator: the command side.
 * Every method validates through the domain, appends through the store and returns a receipt
 * with the sequence of its last event; retries with the same `commandId` return the first
 * receipt and append nothing (S4). Failures are domain errors (`code`) the API maps to tRPC codes.
 */
export interface OrchestratorCommands {
  createProject(input: {
    name: string;
    workspaceRoot: string;
    commandId?: string;
  }): Promise<{ projectId: ProjectId; sequence: number }>;
  createThread(input: {
    projectId: ProjectId;
    title?: string;
    provider?: ProviderKind;
    model?: string | null;
    runtimeMode?: RuntimeMode;
    commandId?: string;
  }): Promise<{ threadId: ThreadId; sequence: number }>;
  /** Records the run and returns at once; the run proceeds in the background. */
  sendMessage(input: {
    threadId: ThreadId;
    text: string;
    provider?: ProviderKind;
    model?: string | null;
    bringBackFrom?: ThreadId;
    commandId?: string;
  }): Promise<{ runId: RunId; sequence: number }>;
  forkThread(input: {
    threadId: ThreadId;
    sourcePoint?:
      | { type: "latest_stable" }
      | { type: "run"; runId: RunId }
      | { type: "checkpoint"; checkpointId: CheckpointId };
    title?: string;
    isolatedWorkspace?: boolean;
    commandId?: string;
  }): Promise<{ threadId: ThreadId; transferId: ContextTransferId; sequence: number }>;
  /**
   * Steer, interrupt and respond run where the thread's runtime lives: on another instance they
   * are forwarded there, unless `forwarded` says another instance already forwarded them here.
   */
  steer(input: {
    threadId: ThreadId;
    text: string;
    commandId?: string;
    forwarded?: boolean;
  }): Promise<{ sequence: number }>;
  interrupt(input: {
    threadId: ThreadId;
    commandId?: string;
    forwarded?: boolean;
  }): Promise<{ sequence: number }>;
  rollback(input: {
    threadId: ThreadId;
    checkpointId: CheckpointId;
    commandId?: string;
  }): Promise<{ sequence: number }>;
  archive(input: { threadId: ThreadId; commandId?: string }): Promise<{ sequence: number }>;
  respondToRequest(input: {
    requestId: RuntimeRequestId;
    decision: RequestDecision;
    answers?: RequestAnswers;
    commandId?: string;
    forwarded?: boolean;
  }): Promise<{ sequence: number }>;
  /** On a pending transfer this previews the handoff its next run would send on `provider`. */
  regenerateHandoff(input: {
    transferId: ContextTransferId;
    provider?: ProviderKind;
    commandId?: string;
  }): Promise<{ handoffId: ContextHandoffId; sequence: number }>;
  editHandoff(input: {
    transferId: ContextTransferId;
    text: string;
    commandId?: string;
  }): Promise<{ handoffId: ContextHandoffId; sequence: number }>;
  providerStatus(): Promise<
    Array<{
      provider: ProviderKind;
      found: boolean;
      version: string | null;
      ready: boolean;
      lastError: string | null;
    }>
  >;
  /** Stops accepting work, interrupts running turns, closes provider runtimes. */
  shutdown(): Promise<void>;
}
