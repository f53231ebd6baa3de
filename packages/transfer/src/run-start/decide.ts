import { asId, currentHandoffOf, type IdSource } from "@skein/domain";
import { resolveStartContext } from "../resolve-start-context.ts";
import { evolve } from "./evolve.ts";
import { manualPreviewOf } from "./handoff-preview.ts";
import { startAppend } from "./start-commands.ts";
import { startContextHistory } from "./start-inputs.ts";
import type {
  ForkTurn,
  ResumeFailed,
  RunStartInput,
  RunStartOutput,
  RunStartState,
  StartFailure,
  StartTarget,
} from "./types.ts";

/** Ids enter the workflow only through here, as they enter the domain's `decide`. */
export type RunStartMeta = { ids: IdSource };

/** Resolution rounds before a start that keeps failing to resume or fork gives up. */
export const MAX_START_ROUNDS = 4;
/** Resumes of a thread another instance's runtime holds, asking it to let go in between. */
export const HELD_RESUME_ATTEMPTS = 4;
/** Appends refused because the user changed the preview meanwhile, before the start fails. */
export const MAX_START_REJECTIONS = 3;

/**
 * Lazy transfer resolution at run start (T3–T8) as a workflow: given what happened so far
 * (`state`, built by `evolve` from earlier inputs and outputs) and the newest fact, the next
 * thing to do. Resume, native fork, or a portable/delta handoff on a new or resumed provider
 * thread; a native fork or resume that fails becomes a failure the next round's resolution takes
 * into account, so the fallback (portable context) is chosen by the same rules.
 */
export function decide(
  input: RunStartInput,
  state: RunStartState,
  meta: RunStartMeta,
): RunStartOutput {
  const s = evolve(state, input);
  const request = s.request;
  if (!request) return abort("a run start begins with RunStartRequested");
  switch (input.type) {
    case "RunStartRequested":
      if (!request.capabilities) {
        return refuse(
          `The ${request.run.provider} provider is not configured on this Skein server. ` +
            "Send the message with another provider, or configure this one and restart the server.",
        );
      }
      return { type: "LoadContext", data: { after: null } };
    case "ContextLoaded":
    case "CodeStateLoaded":
      return resolve(s);
    case "RuntimeReady":
      return openTarget(s, meta);
    case "ThreadStarted":
    case "NativeForked":
    case "ThreadResumed":
      return append(s, s.target, meta);
    case "NativeForkFailed": {
      const transferId = s.resolution?.kind === "native" ? s.resolution.transfer.transferId : null;
      if (!transferId) return abort("a native fork failed that was never asked for");
      return retry(s, {
        kind: "native_fork",
        transferId: asId("transfer", transferId),
        reason: `native fork failed: ${input.data.reason}`,
      });
    }
    case "ResumeFailed":
      return resumeFailed(s, input.data);
    case "StartAppended":
      return s.append
        ? { type: "StartTurn", data: s.append.started }
        : abort("nothing was appended");
    case "StartRejected":
      return rejected(state, s, input.data.error, meta);
  }
}

function resolve(s: RunStartState): RunStartOutput {
  const request = s.request!;
  const caps = request.capabilities!;
  const { state, inputs } = s.context!;
  // The user's edited handoff is what they chose to carry over, so it rules out a native fork.
  const manual = manualPreviewOf(state, inputs.pendingTransfers);
  const resolution = resolveStartContext({
    threadId: request.threadId,
    provider: request.run.provider,
    message: request.text,
    capabilities: { nativeFork: caps.nativeFork, forkAtTurn: caps.forkAtTurn, resume: caps.resume },
    ...startContextHistory(state, inputs),
    manualContext: manual?.summaryText ?? null,
    knownFailures: {
      nativeForkFailedTransferIds: s.failures.flatMap((f) =>
        f.kind === "native_fork" ? [f.transferId] : [],
      ),
      providerThreads: s.failures.flatMap((f) =>
        f.kind === "provider_thread"
          ? [{ providerThreadId: f.providerThreadId, reason: f.reason }]
          : [],
      ),
    },
  });
  if (resolution.kind === "unsupported") {
    return refuse(
      `The run could not be given its context on ${request.run.provider}: ${resolution.detail}. ` +
        "Send the message with another provider, or fork from another point.",
    );
  }
  // Only a handoff shows the state of the work; git is read for it once it is certain to be
  // built (issue 34: a native fork's first turn waited behind two diffs it never used).
  const buildsHandoff = resolution.kind === "portable" || resolution.kind === "delta";
  if (buildsHandoff && inputs.netDiffs === undefined) {
    return { type: "LoadCodeState", data: { state, inputs } };
  }
  return { type: "EnsureRuntime", data: { resolution } };
}

/** With a live runtime: fork, start, resume or reuse the provider thread the resolution names. */
function openTarget(s: RunStartState, meta: RunStartMeta): RunStartOutput {
  const res = s.resolution;
  const runtime = s.runtime!;
  const { state, inputs } = s.context!;
  if (!res) return abort("the runtime is ready before the context was resolved");
  if (res.kind === "native") {
    const transferId = asId("transfer", res.transfer.transferId);
    const sourcePt = res.fork.sourceProviderThreadId;
    if (!sourcePt) {
      return retry(s, { kind: "native_fork", transferId, reason: "source has no provider thread" });
    }
    const source = inputs.threads.get(asId("thread", res.fork.sourceThreadId));
    const history: ForkTurn[] = [...(source?.providerTurns.values() ?? [])]
      .filter((t) => t.providerThreadId === sourcePt)
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((t) => ({ nativeTurnRef: t.nativeTurnRef, ordinal: t.ordinal, status: t.status }));
    const turn = history.find((t) => t.nativeTurnRef === res.fork.providerTurnRef);
    return {
      type: "ForkNative",
      data: { nativeThreadRef: res.fork.providerThreadRef, at: turn ? { turn, history } : null },
    };
  }
  if (res.target.action === "start_new") return { type: "StartThread", data: {} };
  const providerThreadId = asId("providerThread", res.target.providerThreadId);
  const ref = state.providerThreads.get(providerThreadId)?.nativeThreadRef;
  const failed: StartFailure = {
    kind: "provider_thread",
    providerThreadId,
    reason: "resume_failed",
  };
  if (!ref) return retry(s, failed);
  if (runtime.loadedThreads.has(ref)) {
    return append(s, { kind: "existing", providerThreadId, nativeThreadRef: ref }, meta);
  }
  // Whether this runtime has the thread loaded is known only here (a reaped or restarted
  // runtime has none), so resume whenever the adapter can, whatever the persisted status says.
  if (!res.target.resume && !runtime.canResume) return retry(s, failed);
  // Issue 35: a thread this runtime has not loaded may be live in another instance's runtime,
  // whose copy would go stale once this one runs a turn (Claude keeps no lock: that instance
  // would later continue its own, older conversation). Peers let go before the resume, so only
  // the runtime that ran the latest turn ever holds the thread.
  return {
    type: "ResumeThread",
    data: {
      providerThreadId,
      nativeThreadRef: ref,
      askPeersFirst: runtime.canAskPeers,
      waitMs: 0,
    },
  };
}

/**
 * A resume refused because another instance's runtime holds the thread is tried again, asking
 * that instance to let go first, with backoff, so a hop between instances continues natively
 * instead of rebuilding the conversation from a summary. Any other refusal ends the round.
 */
function resumeFailed(s: RunStartState, failed: ResumeFailed["data"]): RunStartOutput {
  const { held, instanceId } = failed;
  const resuming = s.resuming;
  if (!resuming) return abort("a resume failed that was never asked for");
  const attempt = resuming.attempts;
  if (held && s.runtime?.canAskPeers && attempt < HELD_RESUME_ATTEMPTS) {
    return {
      type: "ResumeThread",
      data: {
        providerThreadId: resuming.providerThreadId,
        nativeThreadRef: resuming.nativeThreadRef,
        askPeersFirst: attempt === 1,
        waitMs: 100 * 2 ** attempt,
      },
    };
  }
  return retry(s, {
    kind: "provider_thread",
    providerThreadId: resuming.providerThreadId,
    reason: "resume_failed",
    detail: `resume failed${instanceId ? ` on instance ${instanceId}` : ""}: ${failed.reason}`,
  });
}

/** Another resolution round with `failure` known, or the end of trying. */
function retry(s: RunStartState, failure: StartFailure): RunStartOutput {
  if (s.round < MAX_START_ROUNDS) return { type: "LoadContext", data: { after: failure } };
  const tries = s.failures.length + 1;
  return refuse(
    `The ${s.request!.run.provider} runtime refused to resume or fork this thread's conversation ` +
      `(${tries} tries). Send the message again; if it keeps failing, fork the thread and continue there.`,
  );
}

function append(s: RunStartState, target: StartTarget | null, meta: RunStartMeta): RunStartOutput {
  if (!target) return abort("the start is appended before its provider thread is known");
  try {
    return startAppend(s, target, meta.ids);
  } catch (error) {
    return abort(error);
  }
}

/**
 * The user edited or regenerated the preview while this run was starting: settle the handoff
 * again against what is current now rather than failing the run. Any other refusal is final.
 */
function rejected(before: RunStartState, s: RunStartState, error: Error, meta: RunStartMeta) {
  const preview = before.append?.preview;
  if (!preview || s.rejections >= MAX_START_REJECTIONS) return abort(error);
  const current = currentHandoffOf(s.context!.state, preview.transferId)?.id ?? null;
  if (current === preview.handoffId) return abort(error);
  return append(s, s.target, meta);
}

const refuse = (failure: string): RunStartOutput => ({ type: "RefuseRun", data: { failure } });
const abort = (error: unknown): RunStartOutput => ({
  type: "AbortStart",
  data: { error: error instanceof Error ? error : new Error(String(error)) },
});
