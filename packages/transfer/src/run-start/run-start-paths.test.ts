import { ThreadScenario } from "@skein/domain/testing";
import { describe, expect, it } from "vitest";
import {
  fact,
  forkOf,
  loaded,
  requested,
  runtime,
  SESSION,
  secondRun,
} from "./run-start-fixtures.ts";
import { applies, commandTypes, given } from "./run-start-spec.ts";
import type { AppendStart } from "./types.ts";

describe("run start: begins", () => {
  it("a provider that is not configured refuses the run before anything is read", () => {
    const { s, runId } = secondRun("codex", "claude");
    given()
      .when({
        ...requested(s, runId),
        data: { ...requested(s, runId).data, capabilities: null },
      } as never)
      .then({ type: "RefuseRun", data: { failure: expect.stringContaining("not configured") } });
  });

  it("a configured provider loads the thread's context first", () => {
    const { s, runId } = secondRun("codex", "codex");
    given()
      .when(requested(s, runId))
      .then({ type: "LoadContext", data: { after: null } });
  });

  it("T5: a transfer that cannot be resolved refuses the run with the resolver's reason", async () => {
    const { src, fork, runId } = forkOf("claude");
    // Two pending transfers on one thread are unsupported (multiple_pending_transfers).
    const [only] = fork.state.transfers.values();
    if (!only) throw new Error("the fork has its transfer");
    const second = { ...only, id: "ctx_second" as typeof only.id };
    fork.state.transfers.set(second.id, second);
    given(requested(fork, runId))
      .when(await loaded(fork.state, src.state))
      .then({
        type: "RefuseRun",
        data: { failure: expect.stringContaining("could not be given its context") },
      });
  });
});

describe("run start: the first run of a thread", () => {
  it("starts a new provider thread and records it with the run's start in one append", async () => {
    const s = new ThreadScenario().create("codex");
    const runId = s.queue("first", "codex");
    const spec = given(requested(s, runId), await loaded(s.state));
    expect(spec.state.resolution).toMatchObject({ kind: "none" });
    const afterRuntime = given(requested(s, runId), await loaded(s.state));
    afterRuntime.when(runtime()).then({ type: "StartThread" });
    const out = given(requested(s, runId), await loaded(s.state), runtime())
      .when(fact.started("native-1"))
      .then({
        type: "AppendStart",
        data: { started: { nativeThreadRef: "native-1", handoff: null } },
      });
    expect(commandTypes(out)).toEqual(["RecordProviderThread", "StartRun"]);
    applies(s.state, (out as AppendStart).data.commands);
    expect(s.state.runs.get(runId)?.status).toBe("starting");
  });

  it("once appended, the turn starts on the recorded provider thread", async () => {
    const s = new ThreadScenario().create("codex");
    const runId = s.queue("first", "codex");
    const spec = given(requested(s, runId), await loaded(s.state), runtime(), fact.started("n1"));
    const appended = spec.state.append!;
    spec.when(fact.appended()).then({ type: "StartTurn", data: appended.started });
  });
});

describe("run start: the same provider again (T5 none)", () => {
  it("a thread the runtime has loaded is reused: only the run's start is appended", async () => {
    const { s, first, runId } = secondRun("codex", "codex");
    const ref = s.state.providerThreads.get(first.providerThreadId)!.nativeThreadRef!;
    const out = given(requested(s, runId), await loaded(s.state))
      .when(runtime({ loadedThreads: new Set([ref]) }))
      .then({
        type: "AppendStart",
        data: { started: { providerThreadId: first.providerThreadId } },
      });
    // The provider thread moves to this runtime's session in the same append.
    expect(commandTypes(out)).toEqual(["UpdateProviderThread", "StartRun"]);
    expect((out as AppendStart).data.commands[0]).toMatchObject({
      data: { providerSessionId: SESSION },
    });
    applies(s.state, (out as AppendStart).data.commands);
  });

  it("a thread the runtime has not loaded is resumed first, then the start is appended", async () => {
    const { s, first, runId } = secondRun("codex", "codex");
    const ref = s.state.providerThreads.get(first.providerThreadId)!.nativeThreadRef!;
    given(requested(s, runId), await loaded(s.state))
      .when(runtime())
      .then({
        type: "ResumeThread",
        data: { nativeThreadRef: ref, askPeersFirst: false, waitMs: 0 },
      });
    given(requested(s, runId), await loaded(s.state), runtime())
      .when(fact.resumed())
      .then({ type: "AppendStart", data: { started: { nativeThreadRef: ref, handoff: null } } });
  });
});

describe("run start: a provider switch (T6/T7)", () => {
  it("records provider thread, transfer, handoff, resolution, run start and consumption in one append", async () => {
    const { s, runId } = secondRun("codex", "claude");
    const spec = given(requested(s, runId), await loaded(s.state));
    expect(spec.state.resolution).toMatchObject({
      kind: "portable",
      transfer: { kind: "create" },
      target: { action: "start_new" },
    });
    const out = given(requested(s, runId), await loaded(s.state), runtime())
      .when(fact.started("claude-1"))
      .then({ type: "AppendStart" });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "CreateContextTransfer",
      "RecordHandoff",
      "ResolveContextTransfer",
      "UpdateProviderThread",
      "StartRun",
      "ConsumeContextTransfer",
    ]);
    const data = (out as AppendStart).data;
    expect(data.started.handoff?.text).toContain("one");
    const after = applies(s.state, data.commands);
    expect(after.runs.get(runId)).toMatchObject({
      status: "starting",
      contextHandoffId: data.started.handoff!.handoffId,
    });
    expect(after.transfers.get(data.started.transferId!)?.status).toBe("consumed");
  });
});

describe("run start: a fork (T3/T4)", () => {
  it("the same provider forks natively and resolves the transfer natively in one append", async () => {
    const { src, fork, runId } = forkOf("codex");
    given(requested(fork, runId), await loaded(fork.state, src.state))
      .when(runtime())
      .then({ type: "ForkNative", data: { at: { turn: { ordinal: 1 } } } });
    const out = given(requested(fork, runId), await loaded(fork.state, src.state), runtime())
      .when(fact.forked("forked-1"))
      .then({
        type: "AppendStart",
        data: { started: { nativeThreadRef: "forked-1", handoff: null } },
      });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "ResolveContextTransfer",
      "StartRun",
      "ConsumeContextTransfer",
    ]);
    expect((out as AppendStart).data.commands[0]).toMatchObject({
      data: { forkedFrom: { nativeThreadRef: expect.any(String) } },
    });
    applies(fork.state, (out as AppendStart).data.commands);
  });

  it("another provider gets a portable handoff on a new provider thread", async () => {
    const { src, fork, runId } = forkOf("claude");
    const out = given(requested(fork, runId), await loaded(fork.state, src.state), runtime())
      .when(fact.started("claude-fork"))
      .then({ type: "AppendStart" });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "RecordHandoff",
      "ResolveContextTransfer",
      "UpdateProviderThread",
      "StartRun",
      "ConsumeContextTransfer",
    ]);
    applies(fork.state, (out as AppendStart).data.commands);
  });
});

describe("run start: a fork of a thread with nothing to carry over", () => {
  it("the transfer is superseded in the run's one append and no handoff is sent", async () => {
    const src = new ThreadScenario("empty").create("codex");
    const fork = new ThreadScenario("fork").forkOf(src);
    const runId = fork.queue("first in the fork", "codex");
    const spec = given(requested(fork, runId), await loaded(fork.state, src.state), runtime());
    expect(spec.state.resolution).toMatchObject({ kind: "none", transfer: { kind: "existing" } });
    const out = spec
      .when(fact.started())
      .then({ type: "AppendStart", data: { started: { handoff: null, transferId: null } } });
    expect(commandTypes(out)).toEqual([
      "RecordProviderThread",
      "SupersedeContextTransfer",
      "StartRun",
    ]);
    applies(fork.state, (out as AppendStart).data.commands);
  });
});
