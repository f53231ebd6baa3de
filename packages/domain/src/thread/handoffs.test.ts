import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { asThread, id, payloadFor } from "../testing/fixtures.ts";
import { H, switching, T } from "../testing/switching.ts";

describe("RecordHandoff / RegenerateHandoff / EditHandoff (T11)", () => {
  it("records a ready handoff as an auditable artifact", () => {
    const { s, create, record, run2 } = switching();
    s.exec(create);
    given(s.events)
      .when(record())
      .then([
        {
          type: "HandoffRecorded",
          data: {
            handoff: {
              id: H,
              status: "ready",
              transferId: T,
              targetRunId: run2,
              coveredRunOrdinals: { from: 1, to: 1 },
            },
          },
        },
      ]);
  });

  it("regenerating supersedes the old handoff and repoints the transfer's resolution", () => {
    const { s, create, record } = switching();
    s.exec(create);
    s.exec(record());
    s.exec({
      type: "ResolveContextTransfer",
      data: {
        threadId: s.threadId,
        transferId: T,
        resolution: { strategy: "portable_context", contextHandoffId: H },
      },
    });
    const H2 = id("handoff", "h2");
    const { after } = given(s.events)
      .when({
        type: "RegenerateHandoff",
        data: {
          threadId: s.threadId,
          handoffId: H,
          newHandoffId: H2,
          summaryText: "better",
          payload: payloadFor(s.threadId),
        },
      })
      .then([
        {
          type: "HandoffReplaced",
          data: {
            previousHandoffId: H,
            reason: "regenerated",
            handoff: {
              id: H2,
              status: "ready",
              strategy: "full_thread_summary",
              summaryText: "better",
            },
          },
        },
      ]);
    const state = asThread(after);
    expect(state.handoffs.get(H)?.status).toBe("superseded");
    expect(state.transfers.get(T)?.resolution).toEqual({
      strategy: "portable_context",
      contextHandoffId: H2,
    });
  });

  it("editing makes a manual_context handoff that supersedes the old one", () => {
    const { s, create, record } = switching();
    s.exec(create);
    s.exec(record());
    given(s.events)
      .when({
        type: "EditHandoff",
        data: {
          threadId: s.threadId,
          handoffId: H,
          newHandoffId: id("handoff", "e"),
          summaryText: "my words",
        },
      })
      .then([
        {
          type: "HandoffReplaced",
          data: {
            reason: "edited",
            handoff: {
              strategy: "manual_context",
              summaryText: "my words",
              createdByProvider: null,
            },
          },
        },
      ]);
  });

  it("handoffs change only before the transfer is consumed; duplicates and unknown transfers are rejected", () => {
    const { s, create, record, run2 } = switching();
    given(s.events).when(record()).thenFails("not_found");
    s.exec(create);
    s.exec(record());
    given(s.events).when(record()).thenFails("conflict");
    s.exec({
      type: "ResolveContextTransfer",
      data: {
        threadId: s.threadId,
        transferId: T,
        resolution: { strategy: "portable_context", contextHandoffId: H },
      },
    });
    given(s.events)
      .when(record(id("handoff", "late")))
      .thenFails("precondition_failed");
    s.exec({
      type: "ConsumeContextTransfer",
      data: { threadId: s.threadId, transferId: T, runId: run2 },
    });
    given(s.events)
      .when({
        type: "RegenerateHandoff",
        data: {
          threadId: s.threadId,
          handoffId: H,
          newHandoffId: id("handoff", "x"),
          summaryText: "x",
          payload: payloadFor(s.threadId),
        },
      })
      .thenFails("conflict", /consumed/);
    given(s.events)
      .when({
        type: "EditHandoff",
        data: {
          threadId: s.threadId,
          handoffId: H,
          newHandoffId: id("handoff", "x"),
          summaryText: "x",
        },
      })
      .thenFails("conflict", /consumed/);
  });

  it("a superseded handoff cannot be replaced again", () => {
    const { s, create, record } = switching();
    s.exec(create);
    s.exec(record());
    s.exec({
      type: "EditHandoff",
      data: {
        threadId: s.threadId,
        handoffId: H,
        newHandoffId: id("handoff", "e"),
        summaryText: "x",
      },
    });
    given(s.events)
      .when({
        type: "EditHandoff",
        data: {
          threadId: s.threadId,
          handoffId: H,
          newHandoffId: id("handoff", "f"),
          summaryText: "y",
        },
      })
      .thenFails("invalid_transition");
  });
});
