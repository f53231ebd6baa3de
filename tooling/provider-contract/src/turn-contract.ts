import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeEvent, RuntimeRequestAnswer } from "@skein/domain/provider";
import { expect, it } from "vitest";
import type { ContractContext } from "./contract-context.ts";
import { anyRole, assistant, expectInOrder, lastRequest, user } from "./conversation.ts";
import {
  assistantText,
  completedItems,
  type EventOf,
  ofType,
  runTurn,
  textDeltas,
} from "./turn-run.ts";

/** Generous bound for "interrupted within 1 s", measured from the interrupt call. */
const INTERRUPT_BOUND_MS = 1_000;

/** Single-turn behaviour: streaming, history, handoff injection, approvals, interrupt, errors. */
export function describeTurnContract(ctx: ContractContext): void {
  it("a turn streams text and ends with exactly one turn.completed {completed}", async () => {
    const reply = "Contract reply streamed in several words";
    ctx.harness.script({ kind: "text", text: reply });
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);

    const turn = await runTurn(session, nativeThreadRef, "Say something", settings);

    expect(turn.completed.status).toBe("completed");
    const [message, ...others] = completedItems(turn.events, "assistant_message");
    expect(others).toEqual([]);
    expect(message?.status).toBe("completed");
    expect(message?.fields.text).toBe(reply);
    const deltas = textDeltas(turn.events, message?.itemRef ?? "");
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.join("")).toBe(reply);
  });

  it("a second turn carries the first in its model request", async () => {
    ctx.harness.script(
      { kind: "text", text: "FIRST-ANSWER-ctr" },
      { kind: "text", text: "SECOND-ANSWER-ctr" },
    );
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);

    await runTurn(session, nativeThreadRef, "FIRST-QUESTION-ctr", settings);
    const second = await runTurn(session, nativeThreadRef, "SECOND-QUESTION-ctr", settings);

    expect(second.completed.status).toBe("completed");
    expect(assistantText(second.events)).toBe("SECOND-ANSWER-ctr");
    expectInOrder(lastRequest(ctx.harness), [
      user("FIRST-QUESTION-ctr"),
      assistant("FIRST-ANSWER-ctr"),
      user("SECOND-QUESTION-ctr"),
    ]);
  });

  it("injected handoff context reaches the model ahead of the user message", async () => {
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);
    const input = {
      text: "USER-AFTER-HANDOFF-ctr",
      context: { handoffId: "hnd_contract", text: "HANDOFF-CONTEXT-ctr: runs 1-2 decided X." },
    };
    if (!ctx.capabilities.historyInjection) {
      await ctx.expectUnsupported("historyInjection", async () => {
        await session.startTurn(nativeThreadRef, input, { settings }).started;
      });
      return;
    }
    ctx.harness.script({ kind: "text", text: "HANDOFF-ACK-ctr" });

    const turn = await runTurn(session, nativeThreadRef, input, settings);

    expect(turn.completed.status).toBe("completed");
    expectInOrder(lastRequest(ctx.harness), [
      anyRole("HANDOFF-CONTEXT-ctr"),
      user("USER-AFTER-HANDOFF-ctr"),
    ]);
  });

  it("approval-required: accept runs the command, decline does not; both turns complete", async () => {
    const session = await ctx.openSession();
    const settings = ctx.settings("approval-required");
    if (!ctx.capabilities.approvals) {
      await ctx.expectUnsupported("approvals", async () => {
        const { nativeThreadRef } = await session.startThread(settings);
        await session.startTurn(nativeThreadRef, { text: "run it" }, { settings }).started;
      });
      return;
    }
    const acceptedFile = join(ctx.harness.cwd, "contract-accepted.txt");
    const declinedFile = join(ctx.harness.cwd, "contract-declined.txt");
    ctx.harness.script(
      { kind: "command", command: `touch ${acceptedFile} && echo CONTRACT-RAN` },
      { kind: "text", text: "ran it" },
      { kind: "command", command: `touch ${declinedFile} && echo CONTRACT-SKIPPED` },
      { kind: "text", text: "did not run it" },
    );
    const { nativeThreadRef } = await session.startThread(settings);
    const answering = (decision: RuntimeRequestAnswer["decision"]) => async (e: RuntimeEvent) => {
      if (e.type === "request.opened") await session.respondToRequest(e.requestRef, { decision });
    };

    const accepted = await runTurn(
      session,
      nativeThreadRef,
      "run it",
      settings,
      answering("accept"),
    );
    const opened = onlyCommandRequest(accepted.events, "CONTRACT-RAN");
    const ran = completedItems(accepted.events, "command_execution");
    expect(ran).toHaveLength(1);
    expect(ran[0]?.status).toBe("completed");
    expect(ran[0]?.fields.output).toContain("CONTRACT-RAN");
    if (opened.itemRef) expect(ran[0]?.itemRef).toBe(opened.itemRef);
    expect(existsSync(acceptedFile)).toBe(true);
    expect(accepted.completed.status).toBe("completed");
    const toolOutputs = ctx.harness
      .recordedConversationRequests()
      .flat()
      .filter((m) => m.role === "tool" && m.text.includes("CONTRACT-RAN"));
    expect(toolOutputs.length, "the command's output reaches the model").toBeGreaterThan(0);
    await expect(
      session.respondToRequest(opened.requestRef, { decision: "accept" }),
    ).rejects.toThrow();

    const declined = await runTurn(
      session,
      nativeThreadRef,
      "run that",
      settings,
      answering("decline"),
    );
    onlyCommandRequest(declined.events, "CONTRACT-SKIPPED");
    const skipped = completedItems(declined.events, "command_execution");
    expect(skipped.map((e) => e.status)).toEqual(["declined"]);
    expect(skipped[0]?.fields.output ?? "").not.toContain("CONTRACT-SKIPPED");
    expect(existsSync(declinedFile)).toBe(false);
    expect(declined.completed.status).toBe("completed");
  });

  it("interrupt during slow streaming ends the turn interrupted within 1 s", async () => {
    ctx.harness.script({ kind: "slow-text", chunks: Array(20).fill("tick "), delayMs: 100 });
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);
    let turnRef: string | null = null;
    let askedAt = 0;
    let endedAt = 0;
    let interrupting: Promise<unknown> | null = null;

    const turn = await runTurn(session, nativeThreadRef, "stream slowly", settings, async (e) => {
      if (e.type === "turn.started") turnRef = e.nativeTurnRef;
      if (e.type === "turn.completed") endedAt = Date.now();
      if (e.type !== "item.delta" || askedAt !== 0) return;
      askedAt = Date.now();
      if (!ctx.capabilities.interrupt) {
        await ctx.expectUnsupported("interrupt", () =>
          session.interruptTurn(nativeThreadRef, turnRef),
        );
        return;
      }
      // Not awaited: the turn must end on its own event stream, not after the call returns.
      interrupting = session.interruptTurn(nativeThreadRef, turnRef);
    });

    expect(askedAt, "the turn streamed at least one delta").toBeGreaterThan(0);
    if (!ctx.capabilities.interrupt) return;
    await interrupting;
    expect(turn.completed.status).toBe("interrupted");
    expect(endedAt - askedAt).toBeLessThan(INTERRUPT_BOUND_MS);
  });

  it("HTTP 500 fails the turn with an error; the next turn on the thread works", async () => {
    ctx.harness.script(
      { kind: "http-error", status: 500, message: "contract upstream failure" },
      { kind: "text", text: "RECOVERED-ctr" },
    );
    const session = await ctx.openSession();
    const settings = ctx.settings();
    const { nativeThreadRef } = await session.startThread(settings);

    const failed = await runTurn(session, nativeThreadRef, "this one fails", settings);
    expect(failed.completed.status).toBe("failed");
    expect(failed.completed.error ?? "").toMatch(/\S/);

    const next = await runTurn(session, nativeThreadRef, "try again", settings);
    expect(next.completed.status).toBe("completed");
    expect(assistantText(next.events)).toBe("RECOVERED-ctr");
  });
}

function onlyCommandRequest(events: RuntimeEvent[], marker: string): EventOf<"request.opened"> {
  const opened = ofType(events, "request.opened");
  expect(opened.map((e) => e.kind)).toEqual(["command"]);
  const [request] = opened;
  if (!request) throw new Error("no request opened");
  expect(request.command ?? "").toContain(marker);
  return request;
}
