import { describe, expect, it } from "vitest";
import { textKeyedCache } from "./text-keyed-cache.ts";

/** A compute that counts its calls, so a test sees which texts were computed again. */
function counted() {
  const calls: string[] = [];
  const compute = (text: string) => {
    calls.push(text);
    return { of: text };
  };
  return { calls, compute };
}

describe("values kept by their text", () => {
  it("a text asked for again gets the same value, computed once", () => {
    const cache = textKeyedCache<{ of: string }>(100);
    const { calls, compute } = counted();
    const first = cache.get("**a**", compute);
    expect(cache.get("**a**", compute)).toBe(first);
    expect(calls).toEqual(["**a**"]);
  });

  it("past the bound, the least recently used texts go first", () => {
    const cache = textKeyedCache<{ of: string }>(10);
    const { calls, compute } = counted();
    cache.get("aaaa", compute);
    cache.get("bbbb", compute);
    cache.get("aaaa", compute); // used again: "bbbb" is now the least recent
    cache.get("cccc", compute); // 12 chars: one has to go
    expect(cache.keys()).toEqual(["aaaa", "cccc"]);
    cache.get("bbbb", compute);
    expect(calls).toEqual(["aaaa", "bbbb", "cccc", "bbbb"]);
  });

  it("a text longer than the bound is computed every time and evicts nothing", () => {
    const cache = textKeyedCache<{ of: string }>(5);
    const { calls, compute } = counted();
    cache.get("abc", compute);
    const long = "x".repeat(6);
    cache.get(long, compute);
    cache.get(long, compute);
    expect(calls).toEqual(["abc", long, long]);
    expect(cache.keys()).toEqual(["abc"]);
  });
});
