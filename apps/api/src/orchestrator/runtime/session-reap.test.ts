import type { ProviderSessionId } from "@skein/domain";
import type { ProviderAdapter, ProviderSessionHandle } from "@skein/domain/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../logger.ts";
import { SessionManager } from "./session-manager.ts";

const quiet = {
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
} as unknown as Logger;

/** A runtime whose unanswered requests the test sets; records whether it was closed. */
function fakeRuntime() {
  const state = { inFlight: 0, closed: 0 };
  const handle = {
    isAlive: () => state.closed === 0,
    requestsInFlight: () => state.inFlight,
    close: async () => {
      state.closed += 1;
    },
  } as unknown as ProviderSessionHandle;
  const adapter = {
    capabilities: {},
    openSession: async () => handle,
  } as unknown as ProviderAdapter;
  return { state, adapter };
}

function managerFor(adapter: ProviderAdapter, limits: { idleMs: number; recycleIdleMs: number }) {
  let n = 0;
  return new SessionManager(
    { codex: adapter },
    async () => undefined,
    () => `pss_test${++n}` as ProviderSessionId,
    quiet,
    undefined,
    limits.idleMs,
    null,
    { maxLoadedThreads: 64, maxRuntimes: 1, recycleIdleMs: limits.recycleIdleMs },
  );
}

describe("idle runtimes are closed, busy ones are not (B21, issue 35)", () => {
  it("a runtime still answering a request (a thread being started under load) is not closed as idle; once answered, it is", async () => {
    const runtime = fakeRuntime();
    const sessions = managerFor(runtime.adapter, { idleMs: 1_000, recycleIdleMs: 1_000 });
    try {
      await sessions.ensure("codex", "/w", null);
      runtime.state.inFlight = 1;
      await sessions.reapIdle(Date.now() + 60_000);
      expect(runtime.state.closed).toBe(0);
      expect(sessions.stats().runtimes).toBe(1);

      runtime.state.inFlight = 0;
      await sessions.reapIdle(Date.now() + 60_000);
      expect(runtime.state.closed).toBe(1);
      expect(sessions.stats().runtimes).toBe(0);
    } finally {
      await sessions.closeAll();
    }
  });

  it("beyond the bound on live runtimes, one answering a request is kept while an idle one is closed", async () => {
    const busy = fakeRuntime();
    const idle = fakeRuntime();
    let next = 0;
    const adapter = {
      capabilities: {},
      openSession: async () =>
        (next++ === 0 ? busy.adapter : idle.adapter).openSession({} as never),
    } as unknown as ProviderAdapter;
    const sessions = managerFor(adapter, { idleMs: 0, recycleIdleMs: 1_000 });
    try {
      await sessions.ensure("codex", "/a", null);
      await sessions.ensure("codex", "/b", null);
      busy.state.inFlight = 2;
      await sessions.reapIdle(Date.now() + 60_000);
      expect(busy.state.closed).toBe(0);
      expect(idle.state.closed).toBe(1);
    } finally {
      await sessions.closeAll();
    }
  });

  describe("B21: opening a runtime past the bound closes the least recently used rested one at once", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Three runtimes, one folder each, opened in turn (the bound is one live runtime). */
    function threeRuntimes() {
      const runtimes = [fakeRuntime(), fakeRuntime(), fakeRuntime()];
      let next = 0;
      const adapter = {
        capabilities: {},
        openSession: async () => runtimes[next++]!.adapter.openSession({} as never),
      } as unknown as ProviderAdapter;
      // idleMs 0 and the reaper's pass never due: only the opening itself can close anything.
      const sessions = managerFor(adapter, { idleMs: 0, recycleIdleMs: 30_000 });
      return { runtimes, sessions };
    }

    it("one rested for recycleIdleMs is closed when the next opens, without a reaper pass", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const { runtimes, sessions } = threeRuntimes();
      try {
        await sessions.ensure("codex", "/a", null);
        vi.setSystemTime(Date.now() + 31_000);
        await sessions.ensure("codex", "/b", null);
        await vi.waitFor(() => expect(runtimes[0]!.state.closed).toBe(1));
        expect(sessions.stats().runtimes).toBe(1);
      } finally {
        await sessions.closeAll();
      }
    });

    it("one used just now, or answering a request, is kept (the bound waits for it)", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const { runtimes, sessions } = threeRuntimes();
      try {
        await sessions.ensure("codex", "/a", null);
        runtimes[0]!.state.inFlight = 1;
        vi.setSystemTime(Date.now() + 31_000);
        await sessions.ensure("codex", "/b", null);
        vi.setSystemTime(Date.now() + 1_000);
        await sessions.ensure("codex", "/c", null);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(runtimes.map((r) => r.state.closed)).toEqual([0, 0, 0]);
        expect(sessions.stats().runtimes).toBe(3);
      } finally {
        await sessions.closeAll();
      }
    });
  });
});
