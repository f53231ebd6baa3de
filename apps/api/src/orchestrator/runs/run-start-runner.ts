import { setTimeout as sleep } from "node:timers/promises";
import {
  asId,
  type IdSource,
  isDomainError,
  type Run,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import { NativeThreadHeldError, type ThreadSettings } from "@skein/domain/provider";
import { gatherTransferInputs, runStart } from "@skein/transfer";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { RunAppender } from "../recovery/lease-fence.ts";
import type { LiveSession, SessionManager } from "../runtime/session-manager.ts";
import type { NetDiffReader } from "../transfers/net-diffs.ts";

/** The provider thread a run executes on, and the context its message carries. */
export type PreparedStart = runStart.StartedRun & { session: LiveSession };

type Deps = {
  repo: AggregateRepository;
  sessions: SessionManager;
  ids: IdSource;
  /** The thread's fenced appender: nothing is recorded once its lease is lost. */
  appends: RunAppender;
  /** Issue 25 item 2: git's net diffs for the handoff this start may send. */
  netDiffs?: NetDiffReader;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the run-start workflow (packages/transfer `runStart`): performs each effect it decides and
 * feeds the outcome back as a fact, until the run is recorded as started (one append) or
 * refused. The decisions live in the workflow; this only talks to the repository and runtime.
 */
export async function startRun(
  deps: Deps,
  threadId: ThreadId,
  run: Run,
  text: string,
  settings: ThreadSettings,
): Promise<PreparedStart | { failed: string }> {
  const meta = { ids: deps.ids };
  let state = runStart.initialRunStartState();
  const live: Live = { session: null };
  let input: runStart.RunStartInput = {
    type: "RunStartRequested",
    data: {
      threadId,
      run,
      text,
      capabilities: deps.sessions.adapter(run.provider)?.capabilities ?? null,
    },
  };
  for (;;) {
    const output = runStart.decide(input, state, meta);
    state = runStart.evolve(runStart.evolve(state, input), output);
    switch (output.type) {
      case "StartTurn":
        return { ...output.data, session: live.session! };
      case "RefuseRun":
        return { failed: output.data.failure };
      case "AbortStart":
        // Not control flow: an error nobody planned for fails the run as before the workflow.
        throw output.data.error;
      default:
        input = await perform(deps, { threadId, run, settings, live }, output);
    }
  }
}

/** The live runtime the start opened and the thread as last loaded, shared by its effects. */
type Live = { session: LiveSession | null; state?: ThreadState };

/**
 * The native thread the start will use (continue, or fork from), so the runtime that holds it
 * loaded is the one chosen (B21: a draining runtime keeps serving its threads).
 */
function nativeThreadOf(
  resolution: runStart.Resolved,
  state: ThreadState | undefined,
): string | null {
  if (resolution.kind === "native") return resolution.fork.providerThreadRef;
  if (resolution.target.action !== "continue") return null;
  const providerThreadId = asId("providerThread", resolution.target.providerThreadId);
  return state?.providerThreads.get(providerThreadId)?.nativeThreadRef ?? null;
}
type Ctx = { threadId: ThreadId; run: Run; settings: ThreadSettings; live: Live };

/** The thread as committed now and the history of every thread its context reads. */
async function loadContext(deps: Deps, threadId: ThreadId) {
  const state = await deps.repo.thread(threadId);
  return { state, inputs: await gatherTransferInputs(state, (id) => deps.repo.thread(id)) };
}

/** Performs one effect and says what happened, as the workflow's next input. */
async function perform(
  deps: Deps,
  { threadId, run, settings, live }: Ctx,
  output: runStart.RunStartOutput,
): Promise<runStart.RunStartInput> {
  const session = live.session;
  switch (output.type) {
    case "LoadContext": {
      const data = await loadContext(deps, threadId);
      live.state = data.state;
      return { type: "ContextLoaded", data };
    }
    case "LoadCodeState": {
      const reload = () => loadContext(deps, threadId);
      const data = deps.netDiffs
        ? await deps.netDiffs(output.data, run.provider, reload)
        : output.data;
      live.state = data.state;
      return { type: "CodeStateLoaded", data: { ...data, netDiffs: data.inputs.netDiffs ?? [] } };
    }
    case "EnsureRuntime": {
      const opened = await deps.sessions.ensure(
        run.provider,
        settings.cwd,
        settings.model ?? null,
        settings.env,
        nativeThreadOf(output.data.resolution, live.state),
      );
      live.session = opened;
      return {
        type: "RuntimeReady",
        data: {
          providerSessionId: opened.providerSessionId,
          loadedThreads: new Set(opened.loadedThreads),
          canResume: opened.handle.capabilities.resume,
          canAskPeers: deps.sessions.askPeersToRelease !== null,
        },
      };
    }
    case "StartThread": {
      const { nativeThreadRef } = await session!.handle.startThread(settings);
      session!.loadedThreads.add(nativeThreadRef);
      return { type: "ThreadStarted", data: { nativeThreadRef } };
    }
    case "ForkNative":
      try {
        const forked = await session!.handle.forkThread(output.data, settings);
        session!.loadedThreads.add(forked.nativeThreadRef);
        return { type: "NativeForked", data: { nativeThreadRef: forked.nativeThreadRef } };
      } catch (error) {
        return { type: "NativeForkFailed", data: { reason: message(error) } };
      }
    case "ResumeThread": {
      const { nativeThreadRef, askPeersFirst, waitMs } = output.data;
      // Best effort: a peer that cannot be asked (or a store that cannot list them) leaves the
      // resume to find out for itself whether the thread is free.
      if (askPeersFirst) {
        await deps.sessions.askPeersToRelease?.(nativeThreadRef).catch(() => false);
      }
      if (waitMs > 0) await sleep(waitMs);
      try {
        await session!.handle.resumeThread(nativeThreadRef, settings);
        session!.loadedThreads.add(nativeThreadRef);
        return { type: "ThreadResumed", data: {} };
      } catch (error) {
        const held = error instanceof NativeThreadHeldError;
        const instanceId = deps.sessions.owner;
        return { type: "ResumeFailed", data: { reason: message(error), held, instanceId } };
      }
    }
    case "AppendStart":
      try {
        await deps.appends.executeBatch(output.data.commands);
        return { type: "StartAppended", data: {} };
      } catch (error) {
        if (!isDomainError(error)) throw error;
        const state = await deps.repo.thread(threadId);
        return { type: "StartRejected", data: { error, state } };
      }
    case "StartTurn":
    case "RefuseRun":
    case "AbortStart":
      throw new Error(`${output.type} ends the start; nothing is performed for it`);
  }
}
