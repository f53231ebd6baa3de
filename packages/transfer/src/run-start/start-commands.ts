import { asId, type Command, type IdSource, type ProviderThreadId } from "@skein/domain";
import { previewOf } from "./handoff-preview.ts";
import {
  type Ready,
  type Settled,
  settleNothing,
  settlePortable,
  supersede,
  transferOf,
} from "./settle-handoff.ts";
import type { AppendStart, RunStartState, StartTarget } from "./types.ts";

/**
 * The run start's one append: records the provider thread the run executes on, settles the
 * transfer and its handoff by the resolution, and starts the run. Ids come from `ids` in the
 * order the facts are recorded.
 */
export function startAppend(s: RunStartState, target: StartTarget, ids: IdSource): AppendStart {
  const { request, context, runtime, resolution } = s;
  if (!request || !context || !runtime || !resolution) {
    throw new Error("a run start is appended only once its context, runtime and target are known");
  }
  const ready: Ready = {
    threadId: request.threadId,
    run: request.run,
    text: request.text,
    state: context.state,
    inputs: context.inputs,
    providerSessionId: runtime.providerSessionId,
    failures: s.failures,
    historyTool: request.capabilities?.appOwnedTools === true,
  };
  const commands: Command[] = [];
  const providerThreadId = recordTarget(ready, target, resolution, ids, commands);
  let preview: AppendStart["data"]["preview"] = null;
  let out: Settled;
  switch (resolution.kind) {
    case "none":
      out = settleNothing(ready, resolution.transfer?.transferId ?? null, providerThreadId);
      break;
    case "native": {
      const transferId = asId("transfer", resolution.transfer.transferId);
      const found = previewOf(ready.state, transferId);
      out = { commands: [], handoff: null, transferId };
      if (found) out.commands.push(supersede(ready, found, "forked natively instead"));
      out.commands.push({
        type: "ResolveContextTransfer",
        data: {
          threadId: ready.threadId,
          transferId,
          resolution: { strategy: "native_fork", providerThreadRef: target.nativeThreadRef },
        },
      });
      break;
    }
    case "portable":
    case "delta": {
      const { transfer, create } = transferOf(ready, resolution.transfer, ids);
      if (create) commands.push(create);
      const found = previewOf(ready.state, transfer.id);
      preview = { transferId: transfer.id, handoffId: found?.id ?? null };
      out = settlePortable(ready, transfer, found, resolution.handoff, providerThreadId, ids);
      break;
    }
  }
  commands.push(...out.commands);
  const attemptId = ids.next("attempt");
  const rootNodeId = ids.next("node");
  commands.push({
    type: "StartRun",
    data: {
      threadId: ready.threadId,
      runId: ready.run.id,
      attemptId,
      rootNodeId,
      providerThreadId,
      ...(out.handoff ? { contextHandoffId: out.handoff.handoffId } : {}),
    },
  });
  if (out.transferId) {
    commands.push({
      type: "ConsumeContextTransfer",
      data: { threadId: ready.threadId, transferId: out.transferId, runId: ready.run.id },
    });
  }
  const handoff = out.handoff ? { handoffId: out.handoff.handoffId, text: out.handoff.text } : null;
  return {
    type: "AppendStart",
    data: {
      commands,
      target,
      started: {
        providerThreadId,
        nativeThreadRef: target.nativeThreadRef,
        handoff,
        transferId: out.transferId,
      },
      preview,
    },
  };
}

/** Records a new or forked provider thread, or moves an existing one to this runtime. */
function recordTarget(
  r: Ready,
  target: StartTarget,
  resolution: NonNullable<RunStartState["resolution"]>,
  ids: IdSource,
  commands: Command[],
): ProviderThreadId {
  if (target.kind === "existing") {
    const current = r.state.providerThreads.get(target.providerThreadId);
    if (current && current.providerSessionId !== r.providerSessionId) {
      commands.push({
        type: "UpdateProviderThread",
        data: {
          threadId: r.threadId,
          providerThreadId: target.providerThreadId,
          providerSessionId: r.providerSessionId,
        },
      });
    }
    return target.providerThreadId;
  }
  const providerThreadId = ids.next("providerThread");
  const fork = resolution.kind === "native" && target.kind === "forked" ? resolution : null;
  commands.push({
    type: "RecordProviderThread",
    data: {
      threadId: r.threadId,
      providerThreadId,
      provider: r.run.provider,
      providerSessionId: r.providerSessionId,
      nativeThreadRef: target.nativeThreadRef,
      status: "idle",
      forkedFrom: fork
        ? {
            providerThreadId: asId("providerThread", fork.fork.sourceProviderThreadId!),
            nativeThreadRef: fork.fork.providerThreadRef,
            nativeTurnRef: fork.fork.providerTurnRef,
            transferId: asId("transfer", fork.transfer.transferId),
          }
        : null,
    },
  });
  return providerThreadId;
}
