import type { RunStartInput, RunStartOutput, RunStartState } from "./types.ts";

export function initialRunStartState(): RunStartState {
  return {
    request: null,
    round: 0,
    failures: [],
    context: null,
    resolution: null,
    runtime: null,
    resuming: null,
    target: null,
    append: null,
    rejections: 0,
    done: false,
  };
}

/**
 * The start's state after a fact (an input) or a decision (an output): like an emmett workflow,
 * both are messages of the same stream, so a decision's ids and commands are remembered.
 */
export function evolve(
  state: RunStartState,
  message: RunStartInput | RunStartOutput,
): RunStartState {
  switch (message.type) {
    case "RunStartRequested":
      return { ...initialRunStartState(), request: message.data };
    case "LoadContext":
      // A new round forgets the last one's runtime and target; only failures carry over.
      return {
        ...state,
        round: state.round + 1,
        failures: message.data.after ? [...state.failures, message.data.after] : state.failures,
        context: null,
        resolution: null,
        runtime: null,
        resuming: null,
        target: null,
        append: null,
      };
    case "ContextLoaded":
      return { ...state, context: message.data };
    case "CodeStateLoaded": {
      const { state: thread, inputs, netDiffs } = message.data;
      return { ...state, context: { state: thread, inputs: { ...inputs, netDiffs } } };
    }
    case "EnsureRuntime":
      return { ...state, resolution: message.data.resolution };
    case "RuntimeReady":
      return { ...state, runtime: message.data };
    case "ResumeThread":
      return state.resuming
        ? state
        : {
            ...state,
            resuming: {
              providerThreadId: message.data.providerThreadId,
              nativeThreadRef: message.data.nativeThreadRef,
              attempts: 0,
            },
          };
    case "ThreadStarted":
      return { ...state, target: { kind: "new", nativeThreadRef: message.data.nativeThreadRef } };
    case "NativeForked":
      return {
        ...state,
        target: { kind: "forked", nativeThreadRef: message.data.nativeThreadRef },
      };
    case "ThreadResumed":
      return state.resuming ? { ...state, target: existing(state.resuming) } : state;
    case "ResumeFailed":
      return state.resuming
        ? { ...state, resuming: { ...state.resuming, attempts: state.resuming.attempts + 1 } }
        : state;
    case "LoadCodeState":
    case "StartThread":
    case "ForkNative":
    case "NativeForkFailed":
      return state;
    case "AppendStart":
      return { ...state, append: message.data, target: message.data.target };
    case "StartAppended":
      return state;
    case "StartRejected":
      return {
        ...state,
        rejections: state.rejections + 1,
        context: state.context ? { ...state.context, state: message.data.state } : null,
      };
    case "StartTurn":
    case "RefuseRun":
    case "AbortStart":
      return { ...state, done: true };
  }
}

function existing(resuming: NonNullable<RunStartState["resuming"]>) {
  return {
    kind: "existing" as const,
    providerThreadId: resuming.providerThreadId,
    nativeThreadRef: resuming.nativeThreadRef,
  };
}
