import { describe, expect, it } from "vitest";
import { fact, forkOf, requested, runtime, secondRun, unread } from "./run-start-fixtures.ts";
import { given } from "./run-start-spec.ts";
import type { CodeStateLoaded, ContextLoaded } from "./types.ts";

/** The runner's answer to LoadCodeState: the context again, with the net diffs it read. */
const codeState = (loaded: ContextLoaded): CodeStateLoaded => ({
  type: "CodeStateLoaded",
  data: { ...loaded.data, netDiffs: [] },
});

/**
 * Issue 34: git's net diffs (the state of the work a handoff shows) are read only once the
 * resolution builds a handoff; a native fork or a plain turn goes to its runtime without them.
 */
describe("run start: the code state is read only for a handoff", () => {
  it("T4: a native fork resolves from the first load: no net diff is read that no handoff would use", async () => {
    const { src, fork, runId } = forkOf("codex");
    given(requested(fork, runId))
      .when(await unread(fork.state, src.state))
      .then({ type: "EnsureRuntime", data: { resolution: { kind: "native" } } });
  });

  it("T5: the same provider again reads no git", async () => {
    const { s, runId } = secondRun("codex", "codex");
    given(requested(s, runId))
      .when(await unread(s.state))
      .then({ type: "EnsureRuntime", data: { resolution: { kind: "none" } } });
  });

  it("T3: a fork on another provider asks for the code state with the context it resolved from", async () => {
    const { src, fork, runId } = forkOf("claude");
    const first = await unread(fork.state, src.state);
    const out = given(requested(fork, runId)).when(first).then({ type: "LoadCodeState" });
    expect(out).toEqual({ type: "LoadCodeState", data: first.data });
    // Read (even when git had nothing to show), the handoff is built: it is never asked twice.
    given(requested(fork, runId), first)
      .when(codeState(first))
      .then({ type: "EnsureRuntime", data: { resolution: { kind: "portable" } } });
  });

  it("T6: a switch to another provider asks for it too", async () => {
    const { s, runId } = secondRun("codex", "claude");
    given(requested(s, runId))
      .when(await unread(s.state))
      .then({ type: "LoadCodeState" });
  });

  it("T3: the portable round after a failed native fork asks for it, the native one did not", async () => {
    const { src, fork, runId } = forkOf("codex");
    const first = await unread(fork.state, src.state);
    given(requested(fork, runId), first, runtime())
      .when(fact.forkFailed("no such turn"))
      .then({ type: "LoadContext", data: { after: { kind: "native_fork" } } });
    given(requested(fork, runId), first, runtime(), fact.forkFailed("no such turn"))
      .when(await unread(fork.state, src.state))
      .then({ type: "LoadCodeState" });
  });

  it("the context read with the code state replaces the first one (a capture it waited for)", async () => {
    const { src, fork, runId } = forkOf("claude");
    const first = await unread(fork.state, src.state);
    const reloaded = await unread(structuredClone(fork.state), src.state);
    const spec = given(requested(fork, runId), first, codeState(reloaded));
    expect(spec.state.context?.state).toBe(reloaded.data.state);
    expect(spec.state.context?.inputs.netDiffs).toEqual([]);
    expect(spec.state.resolution).toMatchObject({ kind: "portable" });
  });
});
