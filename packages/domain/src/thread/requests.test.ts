import { describe, expect, it } from "vitest";
import { itemForSubject } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { asId } from "../ids.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function waiting(kind: "command" | "user_input" = "command") {
  const s = new ThreadScenario().create();
  const runId = s.queue();
  const started = s.start(runId);
  const open = {
    type: "OpenRuntimeRequest",
    data: {
      threadId: s.threadId,
      providerTurnId: started.providerTurnId,
      requestId: id("request", "r"),
      nodeId: id("node", "req"),
      kind,
      providerSessionId: id("providerSession", "s"),
      title: "Run `ls`?",
      nativeRequestRef: "42",
      ...(kind === "user_input"
        ? {
            questions: [
              { id: "q1", header: null, question: "Which?", options: [], multiSelect: false },
            ],
          }
        : {}),
    },
  } as const;
  return { s, runId, open, ...started };
}

describe("OpenRuntimeRequest", () => {
  it("opens a live request: approval node waiting, run waiting, approval_request item", () => {
    const { s, runId, open } = waiting();
    const { after } = given(s.events)
      .when(open)
      .then([
        {
          type: "RuntimeRequestOpened",
          data: {
            request: {
              status: "pending",
              kind: "command",
              responseCapability: { type: "live", providerSessionId: id("providerSession", "s") },
              runId,
            },
            node: {
              kind: "approval_request",
              status: "waiting",
              runtimeRequestId: id("request", "r"),
            },
            item: {
              type: "approval_request",
              status: "pending",
              requestKind: "command",
              decision: null,
              nativeItemRef: "42",
            },
            plan: null,
          },
        },
      ]);
    const state = asThread(after);
    expect(state.runs.get(runId)?.status).toBe("waiting");
    expect(state.pendingRequestIds.size).toBe(1);
  });

  it("E17: a user_input request records its questions as a `questions` plan", () => {
    const { s, open } = waiting("user_input");
    given(s.events)
      .when(open)
      .then([
        {
          type: "RuntimeRequestOpened",
          data: {
            node: { kind: "user_input_request" },
            plan: { kind: "questions", status: "active", questions: [{ id: "q1" }] },
          },
        },
      ]);
  });

  it("rejects questions on non-user_input kinds, duplicate ids and finished turns", () => {
    const { s, open, providerTurnId } = waiting();
    given(s.events)
      .when({ ...open, data: { ...open.data, questions: [] } })
      .thenFails("validation");
    s.exec(open);
    given(s.events).when(open).thenFails("conflict");
    s.finish(providerTurnId);
    given(s.events)
      .when({
        ...open,
        data: { ...open.data, requestId: id("request", "r2"), nodeId: id("node", "r2") },
      })
      .thenFails("precondition_failed");
  });
});

describe("ResolveRuntimeRequest", () => {
  it("resolves the request; the run goes back to running when nothing else is pending", () => {
    const { s, runId, open } = waiting();
    s.exec(open);
    s.exec({
      ...open,
      data: {
        ...open.data,
        requestId: id("request", "r2"),
        nodeId: id("node", "r2"),
        nativeRequestRef: "43",
      },
    });
    const first = given(s.events)
      .when({
        type: "ResolveRuntimeRequest",
        data: { threadId: s.threadId, requestId: id("request", "r"), decision: "accept" },
      })
      .then([{ type: "RuntimeRequestResolved", data: { decision: "accept", answers: null } }]);
    expect(asThread(first.after).runs.get(runId)?.status).toBe("waiting");
    const second = given([...s.events, ...first.events])
      .when({
        type: "ResolveRuntimeRequest",
        data: { threadId: s.threadId, requestId: id("request", "r2"), decision: "decline" },
      })
      .then([{ type: "RuntimeRequestResolved" }]);
    const state = asThread(second.after);
    expect(state.runs.get(runId)?.status).toBe("running");
    expect(itemForSubject(state, id("node", "r2"))?.item).toMatchObject({
      status: "declined",
      decision: "decline",
    });
    expect(state.nodes.get(id("node", "r2"))?.status).toBe("completed");
  });

  it("answers a user_input request and completes its questions plan", () => {
    const { s, open } = waiting("user_input");
    s.exec(open);
    const { after } = given(s.events)
      .when({
        type: "ResolveRuntimeRequest",
        data: {
          threadId: s.threadId,
          requestId: id("request", "r"),
          decision: "accept",
          answers: { q1: "A" },
        },
      })
      .then([{ type: "RuntimeRequestResolved", data: { answers: { q1: "A" } } }]);
    const plans = [...asThread(after).plans.values()];
    expect(plans[0]?.status).toBe("completed");
  });

  it("rejects a second answer, answers on approvals, and requests that are no longer live (R2)", () => {
    const { s, runId, open } = waiting();
    s.exec(open);
    given(s.events)
      .when({
        type: "ResolveRuntimeRequest",
        data: {
          threadId: s.threadId,
          requestId: id("request", "r"),
          decision: "accept",
          answers: { a: "b" },
        },
      })
      .thenFails("validation");
    const resolve = {
      type: "ResolveRuntimeRequest",
      data: { threadId: s.threadId, requestId: id("request", "r"), decision: "accept" },
    } as const;
    const { events } = given(s.events)
      .when(resolve)
      .then([{ type: "RuntimeRequestResolved" }]);
    given([...s.events, ...events])
      .when(resolve)
      .thenFails("invalid_transition");
    s.exec({
      type: "RecoverInterruptedRun",
      data: { threadId: s.threadId, runId, reason: "restart" },
    });
    // E15: still listed after the restart, but not answerable, with the reason.
    given(s.events)
      .when(resolve)
      .thenFails("precondition_failed", /cannot be answered: restart/);
  });

  it("a turn that ends cancels its still-pending requests", () => {
    const { s, runId, open, providerTurnId } = waiting();
    s.exec(open);
    const { after } = given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: { threadId: s.threadId, providerTurnId, status: "completed" },
      })
      .then([
        { type: "ProviderTurnCompleted" },
        { type: "RunFinished", data: { status: "completed" } },
      ]);
    const state = asThread(after);
    expect(state.requests.get(id("request", "r"))?.status).toBe("cancelled");
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect(state.pendingRequestIds.size).toBe(0);
  });
});

describe("WithdrawRuntimeRequest", () => {
  const withdraw = (threadId: string) =>
    ({
      type: "WithdrawRuntimeRequest",
      data: {
        threadId: asId("thread", threadId),
        requestId: id("request", "r"),
        reason: "Codex withdrew the request",
      },
    }) as const;

  it("closes the request at once with the reason; the run goes back to running", () => {
    const { s, runId, open } = waiting();
    s.exec(open);
    expect(s.state.runs.get(runId)?.status).toBe("waiting");
    const { after } = given(s.events)
      .when(withdraw(s.threadId))
      .then([{ type: "RuntimeRequestWithdrawn", data: { reason: "Codex withdrew the request" } }]);
    const state = asThread(after);
    expect(state.requests.get(id("request", "r"))).toMatchObject({
      status: "cancelled",
      responseCapability: { type: "not_resumable", reason: "Codex withdrew the request" },
    });
    expect(state.pendingRequestIds.size).toBe(0);
    expect(state.runs.get(runId)?.status).toBe("running");
    expect(itemForSubject(state, id("node", "req"))?.item.status).toBe("cancelled");
  });

  it("is a no-op once the request was answered (the withdrawal raced the answer)", () => {
    const { s, open } = waiting();
    s.exec(open);
    s.exec({
      type: "ResolveRuntimeRequest",
      data: { threadId: s.threadId, requestId: id("request", "r"), decision: "accept" },
    });
    given(s.events).when(withdraw(s.threadId)).then([]);
  });
});

describe("E15: requests stranded by a restart", () => {
  it("stay pending but not_resumable until the thread's next run starts, then expire", () => {
    const { s, runId, open } = waiting();
    s.exec(open);
    s.exec({
      type: "RecoverInterruptedRun",
      data: { threadId: s.threadId, runId, reason: "Skein restarted" },
    });
    expect(s.state.requests.get(id("request", "r"))).toMatchObject({
      status: "pending",
      responseCapability: { type: "not_resumable", reason: "Skein restarted" },
    });
    expect(s.state.pendingRequestIds.size).toBe(0);
    s.start(s.queue("again"));
    expect(s.state.requests.get(id("request", "r"))?.status).toBe("expired");
  });

  it("a turn that stops without the person ending it (shutdown, crash) strands them too", () => {
    const { s, open, providerTurnId } = waiting();
    s.exec(open);
    s.exec({
      type: "CompleteProviderTurn",
      data: { threadId: s.threadId, providerTurnId, status: "failed", error: "process died" },
    });
    expect(s.state.requests.get(id("request", "r"))).toMatchObject({
      status: "pending",
      responseCapability: {
        type: "not_resumable",
        reason: expect.stringMatching(/ended failed before this was answered: process died/),
      },
    });
  });

  it("an interrupt the person asked for cancels them instead", () => {
    const { s, runId, open, providerTurnId } = waiting();
    s.exec(open);
    s.exec({ type: "InterruptRun", data: { threadId: s.threadId, runId } });
    s.exec({
      type: "CompleteProviderTurn",
      data: { threadId: s.threadId, providerTurnId, status: "interrupted" },
    });
    expect(s.state.requests.get(id("request", "r"))?.status).toBe("cancelled");
  });
});
