import type { NativeTurnRecord, ProviderSessionHandle, RuntimeEvent } from "@skein/domain/provider";
import type { Scenario } from "./scenarios.ts";

/**
 * Plays a scenario's steps on one provider session as the orchestrator would: turns on the
 * current thread (answering requests, acting at the first delta when asked), forks and rollbacks
 * at the first turn with the thread's known history. Returns every turn's events in order.
 */
export async function driveScenario(
  session: ProviderSessionHandle,
  scenario: Scenario,
  cwd: string,
): Promise<RuntimeEvent[]> {
  const settings = { cwd, runtimeMode: "approval-required" as const };
  let { nativeThreadRef: thread } = await session.startThread(settings);
  let history: NativeTurnRecord[] = [];
  const events: RuntimeEvent[] = [];
  const firstTurn = () => {
    const [first] = history;
    if (!first) throw new Error(`${scenario.name}: a fork or rollback needs a turn before it`);
    return first;
  };
  for (const step of scenario.steps) {
    if (step.kind === "fork") {
      const first = firstTurn();
      const source = { nativeThreadRef: thread, at: { turn: first, history } };
      thread = (await session.forkThread(source, settings)).nativeThreadRef;
      history = [first];
      continue;
    }
    if (step.kind === "rollback") {
      const first = firstTurn();
      await session.rollbackThread(thread, { turn: first, history });
      history = [first];
      continue;
    }
    const handle = session.startTurn(thread, { text: step.prompt }, { settings });
    let acted = false;
    let status: NativeTurnRecord["status"] = "failed";
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === "request.opened") {
        await session.respondToRequest(event.requestRef, { decision: scenario.answer });
      }
      if (event.type === "item.delta" && step.onFirstDelta && !acted) {
        acted = true;
        const { nativeTurnRef } = await handle.started;
        if ("steer" in step.onFirstDelta) {
          await session.steerTurn(thread, nativeTurnRef, step.onFirstDelta.steer);
        } else {
          await session.interruptTurn(thread, nativeTurnRef);
        }
      }
      if (event.type === "turn.completed") status = event.status;
    }
    const { nativeTurnRef } = await handle.started;
    history.push({ nativeTurnRef, ordinal: history.length + 1, status });
  }
  return events;
}
