import type { CommandOf } from "../commands.ts";
import { id, payloadFor } from "./fixtures.ts";
import { ThreadScenario } from "./scenario.ts";

export const T = id("transfer", "t");
export const H = id("handoff", "h");

/** Runs 1 on codex, then run 2 queued for claude with a pending provider_handoff (T6). */
export function switching() {
  const s = new ThreadScenario().create("codex");
  const r1 = s.completedRun("one");
  const run2 = s.queue("two", "claude");
  const point = {
    threadId: s.threadId,
    runId: r1.runId,
    checkpointId: null,
    turnItemId: null,
    providerThreadRef: null,
    providerTurnRef: null,
  };
  const create = {
    type: "CreateContextTransfer",
    data: {
      threadId: s.threadId,
      transferId: T,
      type: "provider_handoff",
      sourceThreadId: s.threadId,
      sourcePoint: point,
      sourceProvider: "codex",
      targetProvider: "claude",
      createdBy: "user",
    },
  } as const;
  const record = (handoffId = H): CommandOf<"RecordHandoff"> => ({
    type: "RecordHandoff",
    data: {
      threadId: s.threadId,
      handoffId,
      transferId: T,
      targetRunId: run2,
      kind: "portable_context",
      strategy: "full_thread_summary",
      fromProviderThreadIds: [r1.providerThreadId],
      toProviderThreadId: id("providerThread", "claude"),
      coveredRunOrdinals: { from: 1, to: 1 },
      summaryText: "run 1: said hello",
      payload: payloadFor(s.threadId),
      createdByProvider: null,
    },
  });
  return { s, r1, run2, point, create, record };
}
