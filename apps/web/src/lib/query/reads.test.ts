import type { SkeinClient } from "@skein/contract";
import {
  type QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
} from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "./query-client.ts";
import { queryKeys } from "./keys.ts";
import { reads } from "./reads.ts";

/** Only the procedures these reads call, counting calls (the query library itself is real). */
function fakeClient(overrides: { models?: () => Promise<unknown> } = {}) {
  const calls = { status: 0, models: 0, compareDiff: [] as Array<string | undefined> };
  const client = {
    provider: {
      status: {
        query: async () => {
          calls.status += 1;
          return [{ provider: "codex", ready: true }];
        },
      },
      models: {
        query: async () => {
          calls.models += 1;
          return overrides.models ? overrides.models() : [{ id: "gpt-5.5" }];
        },
      },
    },
    thread: {
      compareDiff: {
        query: async (input: { path?: string }) => {
          calls.compareDiff.push(input.path);
          return { forks: [] };
        },
      },
    },
  } as unknown as SkeinClient;
  return { client, calls };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function mount<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: QueryObserverOptions<T, Error, T, T, K>,
) {
  const observer = new QueryObserver(queryClient, options);
  cleanups.push(observer.subscribe(() => undefined));
  return observer;
}

async function settled(queryClient: QueryClient) {
  await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
}

describe("shared reads", () => {
  it("two screens asking for provider status share one request and one answer", async () => {
    const queryClient = createQueryClient();
    const { client, calls } = fakeClient();
    const notice = mount(queryClient, reads.providerStatus(client));
    const menu = mount(queryClient, reads.providerStatus(client));
    await settled(queryClient);
    expect(calls.status).toBe(1);
    expect(menu.getCurrentResult().data).toBe(notice.getCurrentResult().data);
  });

  it("a provider's model catalog is read once per page, each provider on its own", async () => {
    const queryClient = createQueryClient();
    const { client, calls } = fakeClient();
    mount(queryClient, reads.providerModels(client, "codex"));
    await settled(queryClient);
    mount(queryClient, reads.providerModels(client, "codex"));
    await settled(queryClient);
    expect(calls.models).toBe(1);
    mount(queryClient, reads.providerModels(client, "claude"));
    await settled(queryClient);
    expect(calls.models).toBe(2);
  });

  it("a catalog that could not be read is asked for again by the next screen", async () => {
    const queryClient = createQueryClient();
    let down = true;
    const { client, calls } = fakeClient({
      models: async () => {
        if (down) throw new Error("codex is not set up");
        return [{ id: "gpt-5.5" }];
      },
    });
    const first = mount(queryClient, reads.providerModels(client, "codex"));
    await settled(queryClient);
    expect(first.getCurrentResult().status).toBe("error");
    expect(calls.models).toBe(1);
    down = false;
    const second = mount(queryClient, reads.providerModels(client, "codex"));
    await settled(queryClient);
    expect(calls.models).toBe(2);
    expect(second.getCurrentResult().data).toEqual([{ id: "gpt-5.5" }]);
  });

  it("a fork writing more outdates every file's diffs of those forks, not only the one shown", async () => {
    const queryClient = createQueryClient();
    const { client, calls } = fakeClient();
    const forks = ["thr_a", "thr_b"];
    mount(queryClient, reads.compareDiff(client, forks, null));
    await settled(queryClient);
    const one = mount(queryClient, reads.compareDiff(client, forks, "src/a.ts"));
    await settled(queryClient);
    one.destroy();
    const other = mount(queryClient, reads.compareDiff(client, ["thr_a", "thr_c"], null));
    await settled(queryClient);
    calls.compareDiff.length = 0;

    await queryClient.invalidateQueries({ queryKey: queryKeys.compareDiffs(forks) });
    // The screen still showing all files reads again; the closed one is stale for its next look.
    expect(calls.compareDiff).toEqual([undefined]);
    expect(queryClient.getQueryState(queryKeys.compareDiff(forks, "src/a.ts"))?.isInvalidated).toBe(
      true,
    );
    expect(other.getCurrentResult().isStale).toBe(false);
  });
});
