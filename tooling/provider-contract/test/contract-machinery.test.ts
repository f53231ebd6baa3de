import { tmpdir } from "node:os";
import {
  CapabilityUnsupportedError,
  type ProviderCapabilityFlags,
  type ProviderSessionHandle,
} from "@skein/domain/provider";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { ContractContext } from "../src/contract-context.ts";
import { assistant, expectAbsent, expectInOrder, user } from "../src/conversation.ts";
import type { ConversationMessage } from "../src/harness.ts";
import { expectTurnEnvelope, runTurn } from "../src/turn-run.ts";

/**
 * The contract's own checks, against the in-memory scripted provider: a "model request" is
 * recorded per started turn, which is all `expectUnsupported` needs to see.
 */
function contextFor(capabilities: Partial<ProviderCapabilityFlags>): ContractContext {
  return new ContractContext(async () => {
    const provider = createScriptedProvider({ capabilities });
    return {
      adapter: provider,
      cwd: tmpdir(),
      script: () => {},
      recordedConversationRequests: () =>
        provider.calls.filter((c) => c.op === "startTurn").map(() => []),
      dispose: async () => {},
    };
  });
}

let ctx: ContractContext | null = null;
afterEach(async () => {
  await ctx?.tearDown();
  ctx = null;
});

async function threadIn(capabilities: Partial<ProviderCapabilityFlags>) {
  ctx = contextFor(capabilities);
  await ctx.setUp();
  const session = await ctx.openSession();
  const { nativeThreadRef } = await session.startThread(ctx.settings());
  return { ctx, session, nativeThreadRef };
}

function runOne(session: ProviderSessionHandle, ref: string, settings = { cwd: tmpdir() }) {
  return runTurn(session, ref, "hello", { ...settings, runtimeMode: "full-access" });
}

describe("expectUnsupported", () => {
  it("passes when the operation throws CapabilityUnsupportedError and sends nothing", async () => {
    const { ctx, session, nativeThreadRef } = await threadIn({ rollback: false });
    await ctx.expectUnsupported("rollback", () => session.rollbackThread(nativeThreadRef, null));
  });

  it("fails when the operation succeeds", async () => {
    const { ctx, session, nativeThreadRef } = await threadIn({});
    await expect(
      ctx.expectUnsupported("rollback", () => session.rollbackThread(nativeThreadRef, null)),
    ).rejects.toThrow(/CapabilityUnsupportedError/);
  });

  it("fails when the operation throws another error", async () => {
    const { ctx } = await threadIn({});
    await expect(
      ctx.expectUnsupported("resume", () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow(/boom/);
  });

  it("fails when a model request was recorded before the refusal", async () => {
    const { ctx, session, nativeThreadRef } = await threadIn({});
    await expect(
      ctx.expectUnsupported("historyInjection", async () => {
        await runOne(session, nativeThreadRef);
        throw new CapabilityUnsupportedError("codex", "historyInjection", "startTurn");
      }),
    ).rejects.toThrow(/length/);
  });
});

describe("runTurn envelope", () => {
  it("accepts a well-formed turn and returns its completion", async () => {
    const { session, nativeThreadRef } = await threadIn({});
    const turn = await runOne(session, nativeThreadRef);
    expect(turn.completed.status).toBe("completed");
    expect(turn.nativeTurnRef).not.toBeNull();
  });

  it("rejects events that do not start with turn.started or leave an item open", () => {
    const completed = { type: "turn.completed", nativeTurnRef: null, status: "completed" } as const;
    const started = { type: "turn.started", nativeTurnRef: null } as const;
    const item = {
      type: "item.started",
      itemRef: "i1",
      kind: "assistant_message",
      fields: {},
    } as const;
    expect(() => expectTurnEnvelope([completed])).toThrow();
    expect(() => expectTurnEnvelope([started, completed, completed])).toThrow();
    expect(() => expectTurnEnvelope([started, item, completed])).toThrow(/never completed/);
    expect(() => expectTurnEnvelope([started, completed])).not.toThrow();
  });
});

describe("conversation assertions", () => {
  const conversation: ConversationMessage[] = [
    { role: "user", text: "Q1" },
    { role: "assistant", text: "A1" },
    { role: "user", text: "CONTEXT then Q2" },
  ];

  it("check presence, role and order, also inside one merged text", () => {
    expectInOrder(conversation, [user("Q1"), assistant("A1"), user("CONTEXT"), user("Q2")]);
    expect(() => expectInOrder(conversation, [user("Q2"), user("CONTEXT")])).toThrow(/order/);
    expect(() => expectInOrder(conversation, [assistant("Q1")])).toThrow(/missing/);
    expectAbsent(conversation, ["Q3"]);
    expect(() => expectAbsent(conversation, ["A1"])).toThrow(/present/);
  });
});
