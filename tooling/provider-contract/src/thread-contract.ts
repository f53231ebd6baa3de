import type {
  NativeTurnBoundary,
  NativeTurnRecord,
  ProviderSessionHandle,
  ThreadSettings,
} from "@skein/domain/provider";
import { expect, it } from "vitest";
import type { ContractContext } from "./contract-context.ts";
import { assistant, expectAbsent, expectInOrder, lastRequest, user } from "./conversation.ts";
import { runTurn } from "./turn-run.ts";

type TwoTurnThread = {
  nativeThreadRef: string;
  /** "Everything up to and including turn 1", as the orchestrator would pass it. */
  atTurnOne: NativeTurnBoundary;
  one: { question: string; answer: string };
  two: { question: string; answer: string };
};

/** A thread with two completed turns whose texts are unique to `tag`. */
async function twoTurnThread(
  ctx: ContractContext,
  session: ProviderSessionHandle,
  settings: ThreadSettings,
  tag: string,
): Promise<TwoTurnThread> {
  const one = { question: `${tag}-ONE-Q`, answer: `${tag}-ONE-A` };
  const two = { question: `${tag}-TWO-Q`, answer: `${tag}-TWO-A` };
  ctx.harness.script({ kind: "text", text: one.answer }, { kind: "text", text: two.answer });
  const { nativeThreadRef } = await session.startThread(settings);
  const history: NativeTurnRecord[] = [];
  for (const [ordinal, turn] of [one, two].entries()) {
    const run = await runTurn(session, nativeThreadRef, turn.question, settings);
    expect(run.completed.status).toBe("completed");
    history.push({ nativeTurnRef: run.nativeTurnRef, ordinal: ordinal + 1, status: "completed" });
  }
  const first = history[0];
  if (!first) throw new Error("unreachable: two turns ran");
  return { nativeThreadRef, atTurnOne: { turn: first, history }, one, two };
}

/** Thread-level behaviour: native fork at a turn, rollback, resume in a new session. */
export function describeThreadContract(ctx: ContractContext): void {
  it("native fork at turn 1 of a 2-turn thread: the fork holds turn 1 only; the source is unchanged", async () => {
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const source = await twoTurnThread(ctx, session, settings, "FORK");
    const fork = () =>
      session.forkThread(
        { nativeThreadRef: source.nativeThreadRef, at: source.atTurnOne },
        settings,
      );
    const { nativeFork, forkAtTurn } = ctx.capabilities;
    if (!nativeFork || !forkAtTurn) {
      await ctx.expectUnsupported(nativeFork ? "forkAtTurn" : "nativeFork", fork);
      return;
    }

    const { nativeThreadRef: forked } = await fork();
    expect(forked).not.toBe(source.nativeThreadRef);
    ctx.harness.script(
      { kind: "text", text: "ON-FORK-A" },
      { kind: "text", text: "SOURCE-AGAIN-A" },
    );

    await runTurn(session, forked, "ON-FORK-Q", settings);
    const onFork = lastRequest(ctx.harness);
    expectInOrder(onFork, [
      user(source.one.question),
      assistant(source.one.answer),
      user("ON-FORK-Q"),
    ]);
    expectAbsent(onFork, [source.two.question, source.two.answer]);

    await runTurn(session, source.nativeThreadRef, "SOURCE-AGAIN-Q", settings);
    const onSource = lastRequest(ctx.harness);
    expectInOrder(onSource, [
      user(source.one.question),
      assistant(source.one.answer),
      user(source.two.question),
      assistant(source.two.answer),
      user("SOURCE-AGAIN-Q"),
    ]);
    expectAbsent(onSource, ["ON-FORK-Q", "ON-FORK-A"]);
  });

  it("rollback to turn 1: the next model request lacks turn 2", async () => {
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const thread = await twoTurnThread(ctx, session, settings, "ROLLBACK");
    const rollback = () => session.rollbackThread(thread.nativeThreadRef, thread.atTurnOne);
    if (!ctx.capabilities.rollback) {
      await ctx.expectUnsupported("rollback", rollback);
      return;
    }

    await expect(rollback()).resolves.toEqual({ removedTurns: 1 });
    ctx.harness.script({ kind: "text", text: "AFTER-ROLLBACK-A" });
    const after = await runTurn(session, thread.nativeThreadRef, "AFTER-ROLLBACK-Q", settings);

    expect(after.completed.status).toBe("completed");
    const request = lastRequest(ctx.harness);
    expectInOrder(request, [
      user(thread.one.question),
      assistant(thread.one.answer),
      user("AFTER-ROLLBACK-Q"),
    ]);
    expectAbsent(request, [thread.two.question, thread.two.answer]);
  });

  it("resume after closing the session: a new session continues the thread with its history", async () => {
    const settings = ctx.settings();
    const first = await ctx.openSession();
    const { nativeThreadRef } = await first.startThread(settings);
    ctx.harness.script({ kind: "text", text: "RESUME-ONE-A" });
    const one = await runTurn(first, nativeThreadRef, "RESUME-ONE-Q", settings);
    expect(one.completed.status).toBe("completed");
    await first.close();
    expect(first.isAlive()).toBe(false);

    const second = await ctx.openSession();
    const resume = () => second.resumeThread(nativeThreadRef, settings);
    if (!ctx.capabilities.resume) {
      await ctx.expectUnsupported("resume", resume);
      return;
    }
    await expect(resume()).resolves.toEqual({ nativeThreadRef });
    ctx.harness.script({ kind: "text", text: "RESUME-TWO-A" });
    const two = await runTurn(second, nativeThreadRef, "RESUME-TWO-Q", settings);

    expect(two.completed.status).toBe("completed");
    expectInOrder(lastRequest(ctx.harness), [
      user("RESUME-ONE-Q"),
      assistant("RESUME-ONE-A"),
      user("RESUME-TWO-Q"),
    ]);
  });
}
