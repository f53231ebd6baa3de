import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id, payloadFor } from "../testing/fixtures.ts";
import { switching, T } from "../testing/switching.ts";

const P = id("handoff", "preview");

/** The pending provider_handoff of `switching()`, with a handoff previewed before run 2 starts. */
function previewed() {
  const sw = switching();
  const { s } = sw;
  const preview = (
    strategy: CommandOf<"PreviewHandoff">["data"]["strategy"] = "full_thread_summary",
    handoffId = P,
  ): CommandOf<"PreviewHandoff"> => ({
    type: "PreviewHandoff",
    data: {
      threadId: s.threadId,
      handoffId,
      transferId: T,
      kind: "portable_context",
      strategy,
      fromProviderThreadIds: [sw.r1.providerThreadId],
      coveredRunOrdinals: { from: 1, to: 1 },
      summaryText: strategy === "manual_context" ? "my own words" : "run 1: said hello",
      payload: payloadFor(s.threadId),
    },
  });
  const bind = (providerThreadId = sw.r1.providerThreadId): CommandOf<"BindHandoff"> => ({
    type: "BindHandoff",
    data: { threadId: s.threadId, handoffId: P, runId: sw.run2, providerThreadId },
  });
  const resolve = {
    type: "ResolveContextTransfer",
    data: {
      threadId: s.threadId,
      transferId: T,
      resolution: { strategy: "portable_context", contextHandoffId: P },
    },
  } as const;
  const consume = {
    type: "ConsumeContextTransfer",
    data: { threadId: s.threadId, transferId: T, runId: sw.run2 },
  } as const;
  return { ...sw, preview, bind, resolve, consume };
}

describe("PreviewHandoff / BindHandoff / SupersedeHandoff (issue 8: inspect before consumption)", () => {
  it("previews a pending transfer's handoff with no target run or provider thread yet", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    const { after } = given(s.events)
      .when(preview())
      .then([
        {
          type: "HandoffRecorded",
          data: {
            handoff: {
              id: P,
              transferId: T,
              status: "ready",
              targetRunId: null,
              toProviderThreadId: null,
              strategy: "full_thread_summary",
            },
          },
        },
      ]);
    expect(asThread(after).transfers.get(T)?.status).toBe("pending");
  });

  it("an edit without a preview records the user's text as a manual_context handoff", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    given(s.events)
      .when(preview("manual_context"))
      .then([
        {
          type: "HandoffRecorded",
          data: { handoff: { strategy: "manual_context", summaryText: "my own words" } },
        },
      ]);
  });

  it("a second preview is a conflict: the live one is regenerated or edited instead", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    s.exec(preview());
    given(s.events)
      .when(preview("full_thread_summary", id("handoff", "again")))
      .thenFails("conflict", /already has handoff/);
  });

  it("the consuming run binds the preview, resolves with it and shows it as its handoff item", () => {
    const { s, create, preview, bind, resolve, consume, r1, run2 } = previewed();
    s.exec(create);
    s.exec(preview());
    given(s.events)
      .when(resolve)
      .thenFails("precondition_failed", /not bound/);
    const bound = given(s.events)
      .when(bind())
      .then([
        {
          type: "HandoffBound",
          data: { handoffId: P, runId: run2, providerThreadId: r1.providerThreadId },
        },
      ]);
    const handoff = asThread(bound.after).handoffs.get(P);
    expect(handoff).toMatchObject({ targetRunId: run2, toProviderThreadId: r1.providerThreadId });
    s.exec(bind());
    s.exec(resolve);
    given(s.events)
      .when(consume)
      .then([
        {
          type: "ContextTransferConsumed",
          data: {
            item: { type: "handoff", handoffId: P, toProviderThreadId: r1.providerThreadId },
          },
        },
      ]);
  });

  it("binding needs a ready handoff, an open run and a known provider thread", () => {
    const { s, create, preview, bind, run2 } = previewed();
    s.exec(create);
    s.exec(preview());
    given(s.events)
      .when(bind(id("providerThread", "ghost")))
      .thenFails("not_found");
    s.start(run2);
    given(s.events)
      .when(bind())
      .thenFails("precondition_failed", /running/);
  });

  it("superseding sets a preview aside so the run can build its own", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    s.exec(preview());
    const { after } = given(s.events)
      .when({
        type: "SupersedeHandoff",
        data: { threadId: s.threadId, handoffId: P, reason: "built for codex, run uses claude" },
      })
      .then([{ type: "HandoffSuperseded", data: { handoffId: P } }]);
    expect(asThread(after).handoffs.get(P)?.status).toBe("superseded");
  });

  it("a handoff the transfer is resolved with cannot be superseded without a replacement", () => {
    const { s, create, preview, bind, resolve } = previewed();
    s.exec(create);
    s.exec(preview());
    s.exec(bind());
    s.exec(resolve);
    given(s.events)
      .when({ type: "SupersedeHandoff", data: { threadId: s.threadId, handoffId: P, reason: "x" } })
      .thenFails("precondition_failed", /resolved with/);
  });

  it("a preview can be regenerated for another provider while unresolved, changing its kind", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    s.exec(preview());
    given(s.events)
      .when({
        type: "RegenerateHandoff",
        data: {
          threadId: s.threadId,
          handoffId: P,
          newHandoffId: id("handoff", "delta"),
          kind: "delta_context",
          strategy: "delta_since_target_last_seen",
          summaryText: "what you missed",
          payload: payloadFor(s.threadId),
        },
      })
      .then([
        {
          type: "HandoffReplaced",
          data: { handoff: { kind: "delta_context", targetRunId: null } },
        },
      ]);
  });

  it("once the transfer is consumed, previews, edits, regenerations, binds and supersedes are conflicts", () => {
    const { s, create, preview, bind, resolve, consume } = previewed();
    s.exec(create);
    s.exec(preview("manual_context"));
    s.exec(bind());
    s.exec(resolve);
    s.exec(consume);
    const refused = /consumed; its handoff can no longer change/;
    given(s.events)
      .when(preview("full_thread_summary", id("handoff", "late")))
      .thenFails("conflict", refused);
    given(s.events)
      .when({
        type: "EditHandoff",
        data: {
          threadId: s.threadId,
          handoffId: P,
          newHandoffId: id("handoff", "e"),
          summaryText: "too late",
        },
      })
      .thenFails("conflict", refused);
    given(s.events)
      .when({
        type: "RegenerateHandoff",
        data: {
          threadId: s.threadId,
          handoffId: P,
          newHandoffId: id("handoff", "r"),
          summaryText: "too late",
          payload: payloadFor(s.threadId),
        },
      })
      .thenFails("conflict", refused);
    given(s.events).when(bind()).thenFails("conflict", refused);
    given(s.events)
      .when({ type: "SupersedeHandoff", data: { threadId: s.threadId, handoffId: P, reason: "x" } })
      .thenFails("conflict", refused);
  });

  it("a superseded transfer refuses a preview too", () => {
    const { s, create, preview } = previewed();
    s.exec(create);
    s.exec({ type: "SupersedeContextTransfer", data: { threadId: s.threadId, transferId: T } });
    given(s.events)
      .when(preview())
      .thenFails("conflict", /superseded; its handoff can no longer change/);
  });
});
