import { PreconditionFailedError } from "@skein/domain";
import type { ProviderAdapter, ProviderReadiness } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { ProviderReadinessCache } from "./provider-readiness.ts";

const READY: ProviderReadiness = { found: true, version: "1", ready: true, lastError: null };
const SIGNED_OUT: ProviderReadiness = {
  found: true,
  version: "1",
  ready: false,
  lastError: "Sign in with `codex login`.",
  auth: { state: "signed-out", method: null, fix: "Sign in with `codex login`." },
};
const TIMED_OUT: ProviderReadiness = {
  found: true,
  version: "1",
  ready: false,
  lastError: "Codex did not answer its account check.",
  auth: { state: "unknown", method: null, fix: "Codex did not answer its account check." },
};

/** An adapter whose status checks are answered by the test, one by one, in the order asked. */
function scriptedStatus() {
  const pending: Array<(readiness: ProviderReadiness) => void> = [];
  const adapter = {
    status: () => new Promise<ProviderReadiness>((resolve) => pending.push(resolve)),
  } as unknown as ProviderAdapter;
  return {
    adapter,
    asked: () => pending.length,
    answer: (index: number, readiness: ProviderReadiness) => pending[index]?.(readiness),
  };
}

/** Lets every callback already due run (promise chains settle), without waiting on a clock. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function cacheWith(status: ReturnType<typeof scriptedStatus>) {
  let now = 0;
  const cache = new ProviderReadinessCache(
    () => status.adapter,
    30_000,
    () => now,
  );
  return { cache, advance: (ms: number) => (now += ms) };
}

describe("ProviderReadinessCache under load (issue 35)", () => {
  it("a message to a provider found ready is not held by its re-check: the stale answer stands while the runtime is checked again", async () => {
    const status = scriptedStatus();
    const { cache, advance } = cacheWith(status);
    const first = cache.requireReady("codex");
    status.answer(0, READY);
    await first;

    advance(30_001);
    const order: string[] = [];
    const send = cache.requireReady("codex").then(() => order.push("message accepted"));
    await settle();
    // The re-check started, is still running, and the message did not wait for it.
    expect(status.asked()).toBe(2);
    expect(order).toEqual(["message accepted"]);
    await send;
    // Messages meanwhile share that one re-check instead of starting one each.
    await Promise.all([cache.requireReady("codex"), cache.requireReady("codex")]);
    expect(status.asked()).toBe(2);
    status.answer(1, READY);
    await settle();
  });

  it("a sign-out found by the background re-check refuses the next message, in its words", async () => {
    const status = scriptedStatus();
    const { cache, advance } = cacheWith(status);
    const first = cache.requireReady("codex");
    status.answer(0, READY);
    await first;
    advance(30_001);
    await cache.requireReady("codex");
    status.answer(1, SIGNED_OUT);
    await settle();
    // Known not ready now: the next message checks again (the person may have signed back in).
    const refused = cache.requireReady("codex");
    await settle();
    expect(status.asked()).toBe(3);
    status.answer(2, SIGNED_OUT);
    await expect(refused).rejects.toThrow(PreconditionFailedError);
    await expect(refused).rejects.toThrow("Sign in with `codex login`.");
  });

  it("a check that could not finish does not make every next message start and wait for another", async () => {
    const status = scriptedStatus();
    const { cache } = cacheWith(status);
    const first = cache.requireReady("codex");
    status.answer(0, TIMED_OUT);
    await settle();
    // No proof either way: checked once more, then let through (the runtime says more).
    status.answer(1, TIMED_OUT);
    await first;
    expect(status.asked()).toBe(2);
    await Promise.all([1, 2, 3].map(() => cache.requireReady("codex")));
    expect(status.asked()).toBe(2);
  });

  it("the first message waits for the first check, and a provider never checked ready is refused", async () => {
    const status = scriptedStatus();
    const { cache } = cacheWith(status);
    const order: string[] = [];
    const refused = cache.requireReady("codex").catch((error: Error) => {
      order.push(`refused: ${error.message}`);
    });
    await settle();
    expect(order).toEqual([]);
    status.answer(0, SIGNED_OUT);
    await settle();
    status.answer(1, SIGNED_OUT);
    await refused;
    expect(order).toEqual(["refused: Sign in with `codex login`."]);
  });
});
