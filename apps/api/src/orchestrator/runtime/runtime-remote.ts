import type { OrchestratorCommands } from "@skein/contract";

type InputOf<K extends keyof OrchestratorCommands> = Parameters<OrchestratorCommands[K]>[0];

/**
 * The port through which this instance reaches the instance that holds a thread's runtime. The
 * orchestrator decides *whether* to forward (leases); how a call travels is the host's business
 * (the HTTP layer implements it with the API client), so the orchestrator never sees a client.
 */
export interface RuntimeRemote {
  steer(
    address: string,
    input: InputOf<"steer">,
    signal: AbortSignal,
  ): Promise<{ sequence: number }>;
  interrupt(
    address: string,
    input: InputOf<"interrupt">,
    signal: AbortSignal,
  ): Promise<{ sequence: number }>;
  respondToRequest(
    address: string,
    input: InputOf<"respondToRequest">,
    signal: AbortSignal,
  ): Promise<{ sequence: number }>;
  releaseProviderThread(
    address: string,
    input: InputOf<"releaseProviderThread">,
    signal: AbortSignal,
  ): ReturnType<OrchestratorCommands["releaseProviderThread"]>;
}

/**
 * The remote instance gave no answer of its own (unreachable, or it refused this instance's
 * credentials); `why` completes "…runs on instance X, but …". Any other error a remote call
 * throws is the owner's own answer and reaches the caller unchanged.
 */
export class RemoteUnreachableError extends Error {
  constructor(
    readonly why: string,
    options?: { cause?: unknown },
  ) {
    super(why, options);
    this.name = "RemoteUnreachableError";
  }
}

/** For an orchestrator alone in its database (tests, embedded use): no peer to reach. */
export const noRuntimeRemote: RuntimeRemote = {
  steer: unreachable,
  interrupt: unreachable,
  respondToRequest: unreachable,
  releaseProviderThread: unreachable,
};

function unreachable(): Promise<never> {
  return Promise.reject(
    new RemoteUnreachableError("this instance was started without a way to reach other instances"),
  );
}
