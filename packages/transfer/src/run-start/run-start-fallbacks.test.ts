import { describe, expect, it } from "vitest";
import { createSequentialIds } from "@skein/domain";
import { id } from "@skein/domain/testing";
import { decide, HELD_RESUME_ATTEMPTS, MAX_START_ROUNDS } from "./decide.ts";
import {
  fact,
  forkOf,
  loaded,
  preview,
  requested,
  runtime,
  secondRun,
} from "./run-start-fixtures.ts";
import { applies, commandTypes, given } from "./run-start-spec.ts";
import type { AppendStart, RunStartInput } from "./types.ts";

async function resuming(canAskPeers: boolean) {
  const { s, first, runId } = secondRun("codex", "codex");
  const facts = [requested(s, runId), await loaded(s.state), runtime({ canAskPeers })];
  return { s, first, runId, facts };
}

describe("run start: a resume that fails (T7)", () => {
  it("a refused resume ends the round; the next resolution knows the provider thread failed", async () => {
    const { first, facts } = await resuming(false);
    given(...facts)
      .when(fact.resumeFailed())
      .then({
        type: "LoadContext",
        data: {
          after: {
            kind: "provider_thread",
            providerThreadId: first.providerThreadId,
            reason: "resume_failed",
            detail: "resume failed on instance api-b: no such thread",
          },
        },
      });
  });

  it("T7: the rebuild a failed resume causes names the instance and the error in its handoff", async () => {
    const { s, facts } = await resuming(false);
    const spec = given(...facts, fact.resumeFailed(), await loaded(s.state), runtime());
    const out = decide(fact.started("native-rebuilt"), spec.state, {
      ids: createSequentialIds("x"),
    }) as AppendStart;
    expect(out.type).toBe("AppendStart");
    const handoff = out.data.commands.find((c) => c.type === "RecordHandoff");
    const data = handoff?.data as { summaryText: string; payload: { rebuildReason?: string } };
    expect(data.payload.rebuildReason).toBe("resume failed on instance api-b: no such thread");
    expect(data.summaryText).toContain(
      "carried to a new codex thread (resume failed on instance api-b: no such thread)",
    );
    expect(data.summaryText).not.toContain("provider switch");
  });

  it("after it, returning to the provider rebuilds a full summary on a new provider thread", async () => {
    const { s, facts } = await resuming(false);
    const spec = given(...facts, fact.resumeFailed(), await loaded(s.state));
    expect(spec.state.resolution).toMatchObject({
      kind: "portable",
      target: { action: "start_new" },
      handoff: { strategy: "full_thread_summary" },
    });
  });

  it("a resume asks other instances to let go of the thread first, when there are any", async () => {
    const { s, runId } = secondRun("codex", "codex");
    given(requested(s, runId), await loaded(s.state))
      .when(runtime({ canAskPeers: true }))
      .then({ type: "ResumeThread", data: { askPeersFirst: true, waitMs: 0 } });
    given(requested(s, runId), await loaded(s.state))
      .when(runtime({ canAskPeers: false }))
      .then({ type: "ResumeThread", data: { askPeersFirst: false, waitMs: 0 } });
  });

  it("a thread held by another instance's runtime: ask it to let go once, then retry with backoff", async () => {
    const { facts } = await resuming(true);
    given(...facts)
      .when(fact.resumeFailed(true))
      .then({ type: "ResumeThread", data: { askPeersFirst: true, waitMs: 200 } });
    given(...facts, fact.resumeFailed(true))
      .when(fact.resumeFailed(true))
      .then({ type: "ResumeThread", data: { askPeersFirst: false, waitMs: 400 } });
    given(...facts, fact.resumeFailed(true), fact.resumeFailed(true))
      .when(fact.resumed())
      .then({ type: "AppendStart" });
  });

  it(`a thread still held after ${HELD_RESUME_ATTEMPTS} resumes ends the round`, async () => {
    const { facts } = await resuming(true);
    const held: RunStartInput[] = Array.from({ length: HELD_RESUME_ATTEMPTS - 1 }, () =>
      fact.resumeFailed(true),
    );
    given(...facts, ...held)
      .when(fact.resumeFailed(true))
      .then({ type: "LoadContext", data: { after: { kind: "provider_thread" } } });
  });

  it("a held thread with no peers to ask ends the round at once", async () => {
    const { facts } = await resuming(false);
    given(...facts)
      .when(fact.resumeFailed(true))
      .then({ type: "LoadContext", data: { after: { reason: "resume_failed" } } });
  });

  it("a runtime that cannot resume a thread it has not loaded ends the round without trying", async () => {
    const { s, runId } = secondRun("codex", "codex");
    const caps = { nativeFork: false, forkAtTurn: false, resume: false };
    given(requested(s, runId, caps), await loaded(s.state))
      .when(runtime({ canResume: false }))
      .then({ type: "LoadContext", data: { after: { kind: "provider_thread" } } });
  });

  it(`after ${MAX_START_ROUNDS} failed rounds the run is refused, saying how many tries`, async () => {
    const { facts } = await resuming(false);
    const spec = given(...facts);
    // Three earlier rounds already failed (resolution normally avoids a failure it knows of).
    const failure = spec.state.failures[0] ?? {
      kind: "provider_thread" as const,
      providerThreadId: spec.state.resuming!.providerThreadId,
      reason: "resume_failed" as const,
    };
    const state = { ...spec.state, round: MAX_START_ROUNDS, failures: [failure, failure, failure] };
    expect(decide(fact.resumeFailed(), state, { ids: createSequentialIds("x") })).toMatchObject({
      type: "RefuseRun",
      data: {
        failure: expect.stringContaining(
          "refused to resume or fork this thread's conversation (4 tries)",
        ),
      },
    });
  });
});

describe("run start: a native fork that fails (T3)", () => {
  it("falls back to a portable handoff, and the transfer records why", async () => {
    const { src, fork, runId } = forkOf("codex");
    const facts = [requested(fork, runId), await loaded(fork.state, src.state), runtime()];
    given(...facts)
      .when(fact.forkFailed("no such turn"))
      .then({
        type: "LoadContext",
        data: { after: { kind: "native_fork", reason: "native fork failed: no such turn" } },
      });
    const again = [fact.forkFailed("no such turn"), await loaded(fork.state, src.state), runtime()];
    const out = given(...facts, ...again)
      .when(fact.started("portable-1"))
      .then({ type: "AppendStart" });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "RecordHandoff",
      "FallbackToPortable",
      "UpdateProviderThread",
      "StartRun",
      "ConsumeContextTransfer",
    ]);
    const after = applies(fork.state, (out as AppendStart).data.commands);
    const [transfer] = after.transfers.values();
    expect(transfer?.status).toBe("consumed");
  });
});

describe("run start: previews (issue 8)", () => {
  it("the user's edited preview is bound and sent as written, even where a native fork could run", async () => {
    const { src, fork, runId } = forkOf("codex");
    const handoffId = preview(fork, true);
    const out = given(requested(fork, runId), await loaded(fork.state, src.state), runtime())
      .when(fact.started())
      .then({
        type: "AppendStart",
        data: { started: { handoff: { handoffId, text: "my own words" } } },
      });
    expect(commandTypes(out)).toContain("BindHandoff");
    applies(fork.state, (out as AppendStart).data.commands);
  });

  it("a generated preview for no provider is superseded and the run builds its own", async () => {
    const { src, fork, runId } = forkOf("claude");
    const handoffId = preview(fork, false);
    const out = given(requested(fork, runId), await loaded(fork.state, src.state), runtime())
      .when(fact.started())
      .then({ type: "AppendStart" });
    expect((out as AppendStart).data.commands).toContainEqual(
      expect.objectContaining({
        type: "SupersedeHandoff",
        data: expect.objectContaining({ handoffId }),
      }),
    );
    expect(commandTypes(out)).toContain("RecordHandoff");
    applies(fork.state, (out as AppendStart).data.commands);
  });

  it("an unedited preview is superseded when the fork runs natively", async () => {
    const { src, fork, runId } = forkOf("codex");
    preview(fork, false);
    const out = given(requested(fork, runId), await loaded(fork.state, src.state), runtime())
      .when(fact.forked())
      .then({ type: "AppendStart" });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "SupersedeHandoff",
      "ResolveContextTransfer",
      "StartRun",
      "ConsumeContextTransfer",
    ]);
  });
});

describe("run start: the append refused", () => {
  it("when the user changed the preview meanwhile, the handoff is settled again", async () => {
    const { src, fork, runId } = forkOf("claude");
    const generated = preview(fork, false);
    const facts = [
      requested(fork, runId),
      await loaded(fork.state, src.state),
      runtime(),
      fact.started(),
    ];
    const spec = given(...facts);
    const before = spec.state.append!;
    const edited = id("handoff", "edited");
    fork.exec({
      type: "EditHandoff",
      data: {
        threadId: fork.threadId,
        handoffId: generated,
        newHandoffId: edited,
        summaryText: "mine",
      },
    });
    const out = spec
      .when({ type: "StartRejected", data: { error: new Error("superseded"), state: fork.state } })
      .then({ type: "AppendStart", data: { started: { handoff: { handoffId: edited } } } });
    expect(out).not.toEqual({ type: "AppendStart", data: before });
  });

  it("any other refusal aborts the start with the domain's error", async () => {
    const { s, runId } = secondRun("codex", "claude");
    const facts = [requested(s, runId), await loaded(s.state), runtime(), fact.started()];
    const error = new Error("run is not queued");
    given(...facts)
      .when({ type: "StartRejected", data: { error, state: s.state } })
      .then({ type: "AbortStart", data: { error } });
  });
});
