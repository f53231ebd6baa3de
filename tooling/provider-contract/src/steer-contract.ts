import { expect, it } from "vitest";
import type { ContractContext } from "./contract-context.ts";
import { expectInOrder, lastRequest, user } from "./conversation.ts";
import { completedItems, runTurn } from "./turn-run.ts";

const STEER = "STEER-ctr: answer this instead";
const STEERED = "STEERED-ctr";

/**
 * R1 natively: input added to a running turn reaches the model in that turn, and the turn ends on
 * the answer to it (a provider may first finish what it was saying, or cut it off).
 */
export function describeSteerContract(ctx: ContractContext): void {
  it("steer while the turn streams: the steer reaches the model and its answer ends the same turn", async () => {
    ctx.harness.script(
      { kind: "slow-text", chunks: Array(30).fill("tick "), delayMs: 100 },
      { kind: "text", text: STEERED },
    );
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);
    let turnRef: string | null = null;
    let steered = false;

    const turn = await runTurn(
      session,
      nativeThreadRef,
      "stream, then be steered",
      settings,
      async (e) => {
        if (e.type === "turn.started") turnRef = e.nativeTurnRef;
        if (e.type !== "item.delta" || steered) return;
        steered = true;
        if (!ctx.capabilities.steer) {
          await ctx.expectUnsupported("steer", () =>
            session.steerTurn(nativeThreadRef, turnRef, STEER),
          );
          return;
        }
        await session.steerTurn(nativeThreadRef, turnRef, STEER);
      },
    );

    expect(steered, "the turn streamed at least one delta").toBe(true);
    if (!ctx.capabilities.steer) return;
    expect(turn.completed.status).toBe("completed");
    // What was cut off may be closed last (Codex closes it at the turn's end): the steer's answer
    // is the last reply that completed.
    const answers = completedItems(turn.events, "assistant_message").filter(
      (e) => e.status === "completed",
    );
    expect(answers.at(-1)?.fields.text).toBe(STEERED);
    expectInOrder(lastRequest(ctx.harness), [user("stream, then be steered"), user(STEER)]);
    // The steer was part of this turn: the next turn starts after it, not inside it.
    await expect(session.steerTurn(nativeThreadRef, turnRef, "late")).rejects.toThrow();
  });
}
