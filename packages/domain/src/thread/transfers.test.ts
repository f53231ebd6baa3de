import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { H, switching, T } from "../testing/switching.ts";

describe("CreateContextTransfer", () => {
  it("T6: a provider switch is a transfer with source === target and another provider", () => {
    const { s, create } = switching();
    given(s.events)
      .when(create)
      .then([
        {
          type: "ContextTransferCreated",
          data: {
            transfer: {
              type: "provider_handoff",
              sourceThreadId: s.threadId,
              targetThreadId: s.threadId,
              status: "pending",
              targetProvider: "claude",
            },
          },
        },
      ]);
  });

  it("T9: records subagent_result transfers from a child thread", () => {
    const { s, point } = switching();
    const child = id("thread", "child");
    given(s.events)
      .when({
        type: "CreateContextTransfer",
        data: {
          threadId: s.threadId,
          transferId: T,
          type: "subagent_result",
          sourceThreadId: child,
          sourcePoint: { ...point, threadId: child },
          createdBy: "agent",
        },
      })
      .then([
        {
          type: "ContextTransferCreated",
          data: {
            transfer: { type: "subagent_result", sourceThreadId: child, createdBy: "agent" },
          },
        },
      ]);
  });

  it("T7: a provider_handoff may rebuild onto a fresh thread of the same provider", () => {
    const { s, create } = switching();
    given(s.events)
      .when({ ...create, data: { ...create.data, targetProvider: "codex" } })
      .then([{ type: "ContextTransferCreated", data: { transfer: { targetProvider: "codex" } } }]);
  });

  it("rejects a provider_handoff without a target provider or across threads, a merge_back without basePoint, mismatched points, duplicates", () => {
    const { s, create, point } = switching();
    given(s.events)
      .when({ ...create, data: { ...create.data, targetProvider: null } })
      .thenFails("validation");
    const other = id("thread", "other");
    given(s.events)
      .when({
        ...create,
        data: { ...create.data, sourceThreadId: other, sourcePoint: { ...point, threadId: other } },
      })
      .thenFails("validation");
    given(s.events)
      .when({ ...create, data: { ...create.data, type: "merge_back" } })
      .thenFails("validation");
    given(s.events)
      .when({ ...create, data: { ...create.data, sourceThreadId: other } })
      .thenFails("validation");
    given(s.events)
      .when({ ...create, data: { ...create.data, targetRunId: id("run", "ghost") } })
      .thenFails("not_found");
    s.exec(create);
    given(s.events).when(create).thenFails("conflict");
  });
});

describe("CreateContextTransfer bound to a run", () => {
  it("a handoff transfer cannot target a run that already started", () => {
    const { s, create, run2 } = switching();
    s.start(run2);
    given(s.events)
      .when({ ...create, data: { ...create.data, targetRunId: run2 } })
      .thenFails("precondition_failed");
  });

  it("T9: a subagent result may target the parent's running run (it answers a tool call)", () => {
    const { s, create, run2 } = switching();
    s.start(run2);
    const result = {
      ...create,
      data: { ...create.data, type: "subagent_result" as const, targetRunId: run2 },
    };
    const events = s.exec(result);
    expect(events.map((e) => e.type)).toEqual(["ContextTransferCreated"]);
  });
});

describe("ResolveContextTransfer / FallbackToPortable / Consume (T3)", () => {
  it("T3: native resolution then consumed; no handoff item", () => {
    const { s, run2, create } = switching();
    s.exec(create);
    const resolved = given(s.events)
      .when({
        type: "ResolveContextTransfer",
        data: {
          threadId: s.threadId,
          transferId: T,
          resolution: { strategy: "native_fork", providerThreadRef: "native-x" },
        },
      })
      .then([{ type: "ContextTransferResolved", data: { status: "resolved_native" } }]);
    const consumed = given([...s.events, ...resolved.events])
      .when({
        type: "ConsumeContextTransfer",
        data: { threadId: s.threadId, transferId: T, runId: run2 },
      })
      .then([{ type: "ContextTransferConsumed", data: { runId: run2, item: null } }]);
    expect(asThread(consumed.after).transfers.get(T)).toMatchObject({
      status: "consumed",
      consumedByRunId: run2,
    });
  });

  it("T3: portable resolution with a ready handoff; consuming shows a handoff item on the run", () => {
    const { s, run2, create, record, r1 } = switching();
    s.exec(create);
    s.exec(record());
    const resolved = given(s.events)
      .when({
        type: "ResolveContextTransfer",
        data: {
          threadId: s.threadId,
          transferId: T,
          resolution: { strategy: "portable_context", contextHandoffId: H },
        },
      })
      .then([{ type: "ContextTransferResolved", data: { status: "resolved_portable" } }]);
    const consumed = given([...s.events, ...resolved.events])
      .when({
        type: "ConsumeContextTransfer",
        data: { threadId: s.threadId, transferId: T, runId: run2 },
      })
      .then([
        {
          type: "ContextTransferConsumed",
          data: {
            item: {
              type: "handoff",
              handoffId: H,
              runId: run2,
              provider: "claude",
              strategy: "full_thread_summary",
              fromProviderThreadIds: [r1.providerThreadId],
            },
          },
        },
      ]);
    expect(asThread(consumed.after).runs.get(run2)?.contextHandoffId).toBe(H);
  });

  it("T3: a failed native fork falls back to portable, and the record says so", () => {
    const { s, create, record } = switching();
    s.exec(create);
    s.exec({
      type: "ResolveContextTransfer",
      data: {
        threadId: s.threadId,
        transferId: T,
        resolution: { strategy: "native_fork", providerThreadRef: "n" },
      },
    });
    s.exec(record());
    given(s.events)
      .when({
        type: "ResolveContextTransfer",
        data: {
          threadId: s.threadId,
          transferId: T,
          resolution: { strategy: "portable_context", contextHandoffId: H },
        },
      })
      .thenFails("precondition_failed", /FallbackToPortable/);
    const { after } = given(s.events)
      .when({
        type: "FallbackToPortable",
        data: {
          threadId: s.threadId,
          transferId: T,
          reason: "thread/fork failed",
          contextHandoffId: H,
        },
      })
      .then([
        {
          type: "ContextTransferFellBack",
          data: {
            reason: "thread/fork failed",
            resolution: { strategy: "portable_context", contextHandoffId: H },
          },
        },
      ]);
    expect(asThread(after).transfers.get(T)).toMatchObject({
      status: "resolved_portable",
      fallback: { from: "native_fork", reason: "thread/fork failed" },
    });
  });

  it("rejects resolving twice, handoffs of other transfers/kinds, consuming a pending transfer or for another run", () => {
    const { s, create, record, r1 } = switching();
    s.exec(create);
    const resolve = (strategy: "portable_context" | "delta_context") =>
      ({
        type: "ResolveContextTransfer",
        data: {
          threadId: s.threadId,
          transferId: T,
          resolution: { strategy, contextHandoffId: H },
        },
      }) as const;
    given(s.events).when(resolve("portable_context")).thenFails("not_found");
    given(s.events)
      .when({
        type: "ConsumeContextTransfer",
        data: { threadId: s.threadId, transferId: T, runId: r1.runId },
      })
      .thenFails("invalid_transition");
    s.exec(record());
    given(s.events).when(resolve("delta_context")).thenFails("validation");
    s.exec(resolve("portable_context"));
    given(s.events).when(resolve("portable_context")).thenFails("invalid_transition");
    given(s.events)
      .when({
        type: "FallbackToPortable",
        data: { threadId: s.threadId, transferId: T, reason: "x", contextHandoffId: H },
      })
      .thenFails("invalid_transition");
    given(s.events)
      .when({
        type: "ConsumeContextTransfer",
        data: { threadId: s.threadId, transferId: T, runId: r1.runId },
      })
      .thenFails("precondition_failed");
  });

  it("a transfer bound to a run is consumed only by that run", () => {
    const { s, create, r1 } = switching();
    const run3 = s.queue("three", "claude");
    s.exec({ ...create, data: { ...create.data, targetRunId: run3 } });
    s.exec({
      type: "ResolveContextTransfer",
      data: {
        threadId: s.threadId,
        transferId: T,
        resolution: { strategy: "native_fork", providerThreadRef: "n" },
      },
    });
    const run2 = [...s.state.queuedRunIds][0] ?? r1.runId;
    given(s.events)
      .when({
        type: "ConsumeContextTransfer",
        data: { threadId: s.threadId, transferId: T, runId: run2 },
      })
      .thenFails("precondition_failed", /bound/);
  });
});

describe("FailContextTransfer / SupersedeContextTransfer", () => {
  it("fails or supersedes a pending transfer; rejects on final states", () => {
    const { s, create } = switching();
    s.exec(create);
    const fail = {
      type: "FailContextTransfer",
      data: { threadId: s.threadId, transferId: T, error: "unsupported" },
    } as const;
    const { events, after } = given(s.events)
      .when(fail)
      .then([{ type: "ContextTransferFailed", data: { error: "unsupported" } }]);
    expect(asThread(after).transfers.get(T)).toMatchObject({
      status: "failed",
      error: "unsupported",
    });
    given([...s.events, ...events])
      .when(fail)
      .thenFails("invalid_transition");
    const supersede = {
      type: "SupersedeContextTransfer",
      data: { threadId: s.threadId, transferId: T },
    } as const;
    given(s.events)
      .when(supersede)
      .then([{ type: "ContextTransferSuperseded", data: { supersededBy: null } }]);
    given([...s.events, ...events])
      .when(supersede)
      .thenFails("invalid_transition");
    given(s.events)
      .when({ ...supersede, data: { ...supersede.data, supersededBy: T } })
      .thenFails("validation");
    given(s.events)
      .when({ ...supersede, data: { ...supersede.data, supersededBy: id("transfer", "x") } })
      .thenFails("not_found");
  });
});

describe("FallbackToPortable from pending", () => {
  it("records the fallback when the native attempt was never recorded as resolved", () => {
    const { s, create, record } = switching();
    s.exec(create);
    s.exec(record());
    const { after } = given(s.events)
      .when({
        type: "FallbackToPortable",
        data: { threadId: s.threadId, transferId: T, reason: "fork refused", contextHandoffId: H },
      })
      .then([{ type: "ContextTransferFellBack" }]);
    expect(asThread(after).transfers.get(T)).toMatchObject({
      status: "resolved_portable",
      fallback: { reason: "fork refused" },
    });
  });
});
