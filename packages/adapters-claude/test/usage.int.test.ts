import type { RuntimeEvent } from "@skein/domain/provider";
import { anthropicTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { type AdapterHarness, collect, createAdapterHarness } from "./support/adapter-harness.ts";

let h: AdapterHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

type Usage = Extract<RuntimeEvent, { type: "usage" }>;
const lastUsage = (events: RuntimeEvent[]) =>
  events.filter((e): e is Usage => e.type === "usage").at(-1);

describe("Claude adapter: usage", () => {
  it("reports each turn's tokens and its own cost, though the SDK's cost counts per process", async () => {
    h = await createAdapterHarness({
      script: [
        anthropicTextReply("a", { usage: { inputTokens: 1000, outputTokens: 100 } }),
        anthropicTextReply("b", { usage: { inputTokens: 10, outputTokens: 1 } }),
      ],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const first = lastUsage(
      await collect(h.session.startTurn(nativeThreadRef, { text: "hi" }, { settings: h.settings })),
    );
    const second = lastUsage(
      await collect(h.session.startTurn(nativeThreadRef, { text: "x" }, { settings: h.settings })),
    );
    expect(first).toMatchObject({ inputTokens: 1000, outputTokens: 100 });
    expect(second).toMatchObject({ inputTokens: 10, outputTokens: 1 });
    expect(h.session.spawnCount).toBe(1);
    // Same model, a hundredth of the tokens: a hundredth of the cost (not the process's total).
    expect(first?.costUsd).toBeGreaterThan(0);
    expect(second?.costUsd).toBeCloseTo((first?.costUsd ?? 0) / 100, 10);
  });

  it("issue 29: reports how full the context is after the turn's last response, and the window Claude Code gives the model", async () => {
    h = await createAdapterHarness({
      script: [anthropicTextReply("a", { usage: { inputTokens: 1000, outputTokens: 100 } })],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const usage = lastUsage(
      await collect(h.session.startTurn(nativeThreadRef, { text: "hi" }, { settings: h.settings })),
    );
    // What the model read plus what it wrote: its final output count, not the stream's first.
    expect(usage?.contextTokens).toBe(1100);
    expect(usage?.contextWindow).toBeGreaterThan(1100);
  });
});
