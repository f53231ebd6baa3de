import { describe, expect, it } from "vitest";
import { fact, given, POLICY, RUN, THREAD } from "./run-life-spec.ts";
import type { RunLifeOutput } from "./types.ts";

const network = { kind: "network", message: "connection reset" } as const;
const crashed = { kind: "runtime_crashed", message: "runtime exited (code 1)" } as const;

describe("run life: a turn", () => {
  it("a begun run starts its first turn on its own input, with an id from the metadata", () => {
    given()
      .when(fact.began())
      .then({
        type: "StartTurn",
        data: { providerTurnId: "ptn_life_0001", attempt: 1, text: null },
      });
  });

  it("a turn that exists natively is recorded in one append naming the turn asked for", () => {
    given(fact.began())
      .when(fact.started())
      .then({
        type: "RecordTurnStart",
        data: {
          command: {
            type: "StartProviderTurn",
            data: {
              threadId: THREAD,
              runId: RUN,
              providerTurnId: "ptn_life_0001",
              nativeTurnRef: "turn-native-1",
            },
          },
          interrupt: false,
        },
      });
  });

  it("R1: a run interrupted before its turn existed natively stops the turn once recorded", () => {
    given(fact.began())
      .when(fact.started(true))
      .then({ type: "RecordTurnStart", data: { interrupt: true } });
  });

  it("B1: a turn the provider refused to start fails the run, in words with the advice", () => {
    given(fact.began("claude"))
      .when(fact.refused({ kind: "auth", message: "invalid x-api-key" }))
      .then({
        type: "FailRun",
        data: {
          command: {
            type: "FailRun",
            data: {
              threadId: THREAD,
              runId: RUN,
              error: expect.stringMatching(
                /^The Claude Code turn failed: invalid x-api-key\. Check Claude Code/,
              ),
            },
          },
        },
      });
  });

  it("a fact before the run began, or after it ended, is refused, not acted on", () => {
    given().when(fact.started()).then({ type: "AbortLife" });
    given(fact.began(), fact.started(), fact.ended())
      .when(fact.started())
      .then({ type: "AbortLife" });
  });
});

describe("run life: a failed turn (B2)", () => {
  it("B2: a network failure on a live runtime earns a retry, recorded before the turn's end", () => {
    const out = given(fact.began(), fact.started())
      .when(fact.failed(network))
      .then({
        type: "ScheduleRetry",
        data: {
          command: {
            type: "RestartAttempt",
            data: {
              threadId: THREAD,
              runId: RUN,
              attemptId: "att_life_0001",
              rootNodeId: "nod_life_0001",
              reason: "retry",
            },
          },
          kind: "retry",
          delayMs: POLICY.baseDelayMs,
        },
      });
    // The first attempt's words name no attempt number.
    expect((out as Extract<RunLifeOutput, { type: "ScheduleRetry" }>).data.words).toBe(
      "The Codex turn failed: connection reset. Check that the server can reach Codex's model service (network, proxy, or the base URL in Codex's configuration), then send the message again.",
    );
  });

  it("B2: a runtime that died gets a new runtime resuming the provider thread, whatever its words", () => {
    given(fact.began(), fact.started())
      .when(fact.failed({ kind: "auth", message: "gone" }, { runtimeAlive: false }))
      .then({ type: "ScheduleRetry", data: { kind: "provider_recovery" } });
    given(fact.began(), fact.started())
      .when(fact.failed(crashed))
      .then({ type: "ScheduleRetry", data: { kind: "provider_recovery" } });
  });

  it("B1: a cause no new attempt gets past fails the turn in words, with no new attempt", () => {
    given(fact.began(), fact.started())
      .when(fact.failed({ kind: "context_too_long", message: "prompt is too long" }))
      .then({
        type: "DescribeFailure",
        data: { words: expect.stringContaining("compact the thread") },
      });
  });

  it("B2: a rate limit waits as long as asked, and one asking too long fails instead", () => {
    const limited = (retryAfterMs: number) =>
      ({ kind: "rate_limited", message: "429", retryAfterMs }) as const;
    given(fact.began(), fact.started())
      .when(fact.failed(limited(1_500)))
      .then({ type: "ScheduleRetry", data: { delayMs: 1_500 } });
    given(fact.began(), fact.started())
      .when(fact.failed(limited(POLICY.maxRetryAfterMs + 1)))
      .then({ type: "DescribeFailure", data: { words: expect.stringContaining("after 61 s") } });
  });

  it("issue 32: a rate limit past Skein's retries ends the run at a usage limit, with the wait asked", () => {
    const limited = (retryAfterMs?: number) =>
      retryAfterMs === undefined
        ? ({ kind: "rate_limited", message: "429" } as const)
        : ({ kind: "rate_limited", message: "429", retryAfterMs } as const);
    const past = given(fact.began(), fact.started())
      .when(fact.failed(limited(POLICY.maxRetryAfterMs + 1)))
      .then({ type: "DescribeFailure" });
    expect(past).toMatchObject({
      data: { usageLimit: { retryAfterMs: POLICY.maxRetryAfterMs + 1 } },
    });
    // A limit the person stopped is no usage limit; nor is any other failure.
    const stopped = given(fact.began(), fact.started())
      .when(fact.failed(limited(), { interruptRequested: true }))
      .then({ type: "DescribeFailure" });
    expect(stopped.type === "DescribeFailure" && stopped.data.usageLimit).toBeFalsy();
    const other = given(fact.began(), fact.started())
      .when(fact.failed({ kind: "context_too_long", message: "too long" }))
      .then({ type: "DescribeFailure" });
    expect(other.type === "DescribeFailure" && other.data.usageLimit).toBeFalsy();
    given(fact.began("claude"))
      .when(fact.refused(limited()))
      .then({ type: "FailRun", data: { command: { data: { usageLimit: {} } } } });
  });

  it("B2: a turn failing after its attempts are used up says which attempt failed", () => {
    const twice = [
      fact.began(),
      fact.started(),
      fact.failed(network),
      fact.ended(),
      fact.due(),
      fact.reattached(),
      fact.started(),
      fact.failed(network),
      fact.ended(),
      fact.due(),
      fact.reattached(),
      fact.started(),
    ];
    expect(given(...twice).state.retries).toBe(POLICY.maxRetries);
    given(...twice)
      .when(fact.failed(network))
      .then({
        type: "DescribeFailure",
        data: { words: expect.stringContaining("connection reset (attempt 3).") },
      });
  });

  it.each([
    ["the person interrupted it", { interruptRequested: true }],
    ["the person steered it", { steered: true }],
    ["the server stops or the lease is gone", { halted: true }],
    ["B15: the runtime already retried a model it could not reach", { modelUnreachable: true }],
  ])("no new attempt when %s", (_why, also) => {
    given(fact.began(), fact.started())
      .when(fact.failed(network, also))
      .then({
        type: "DescribeFailure",
        data: { words: expect.stringContaining("connection reset") },
      });
  });
});

describe("run life: the new attempt (B2)", () => {
  const failedOnce = [fact.began(), fact.started(), fact.failed(crashed)];

  it("once the failed turn's end is recorded, the run pauses for the policy's delay", () => {
    given(...failedOnce)
      .when(fact.ended())
      .then({ type: "WaitForRetry", data: { delayMs: POLICY.baseDelayMs } });
  });

  it("after the pause the run goes back on a live runtime, then starts the same input again", () => {
    given(...failedOnce, fact.ended())
      .when(fact.due())
      .then({ type: "Reattach", data: { kind: "provider_recovery" } });
    given(...failedOnce, fact.ended(), fact.due())
      .when(fact.reattached())
      .then({
        type: "StartTurn",
        data: { providerTurnId: "ptn_life_0002", attempt: 2, text: null },
      });
  });

  it("a server stopping during the pause ends the run there", () => {
    given(...failedOnce, fact.ended())
      .when(fact.due(true))
      .then({ type: "EndRun" });
    given(...failedOnce)
      .when(fact.ended(null, true))
      .then({ type: "EndRun" });
  });

  it("R2: no runtime that can take the run over fails it, saying both what failed and why", () => {
    given(...failedOnce, fact.ended(), fact.due())
      .when(fact.reattachFailed("spawn codex ENOENT"))
      .then({
        type: "FailRun",
        data: {
          command: {
            data: {
              error: expect.stringContaining(
                "runtime exited (code 1); a new runtime could not take the run over (spawn codex ENOENT)",
              ),
            },
          },
        },
      });
  });
});

describe("run life: steering, stalls, the lease and the end", () => {
  it("R1: a steered turn that stopped restarts with the steering text, as the same attempt", () => {
    given(fact.began(), fact.started())
      .when(fact.ended("use the other file"))
      .then({ type: "StartTurn", data: { attempt: 1, text: "use the other file" } });
  });

  it("a turn that ended with nothing more to do ends the run", () => {
    given(fact.began(), fact.started()).when(fact.ended()).then({ type: "EndRun" });
  });

  it("B2: an idle turn is stopped, and its idle-timeout failure earns a retry", () => {
    given(fact.began(), fact.started())
      .when(fact.stalled("idle"))
      .then({ type: "InterruptTurn", data: { reason: "idle" } });
    given(fact.began(), fact.started(), fact.stalled("idle"))
      .when(fact.failed({ kind: "network", message: "idle timeout: no provider event" }))
      .then({ type: "ScheduleRetry", data: { kind: "retry" } });
  });

  it("B15: a model the runtime cannot reach stops the turn", () => {
    given(fact.began(), fact.started())
      .when(fact.stalled("model_unreachable"))
      .then({ type: "InterruptTurn", data: { reason: "model_unreachable" } });
  });

  it("R2: a lost lease abandons the run to the instance that took it over, even once it ended", () => {
    given(fact.began(), fact.started()).when(fact.leaseLost()).then({ type: "Abandon" });
    given(fact.began(), fact.started(), fact.ended())
      .when(fact.leaseLost())
      .then({ type: "Abandon" });
  });

  it("every decision that records something carries one command (one append per decision)", () => {
    const path = [
      fact.began(),
      fact.started(),
      fact.failed(crashed),
      fact.ended(),
      fact.due(),
      fact.reattached(),
      fact.started(),
      fact.refused(network),
    ];
    const outputs = path.map((f, i) => given(...path.slice(0, i)).when(f).output);
    const commands = outputs.flatMap((o) => ("command" in o.data ? [o.data.command] : []));
    expect(commands.map((c) => c.type)).toEqual([
      "StartProviderTurn",
      "RestartAttempt",
      "StartProviderTurn",
      "FailRun",
    ]);
  });
});
