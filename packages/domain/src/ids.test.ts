import { describe, expect, it } from "vitest";
import { asId, createSequentialIds, ID_PREFIXES, type IdKind, RunId, ThreadId } from "./ids.ts";

describe("ids", () => {
  it("sequential ids are deterministic per seed and carry their kind's prefix", () => {
    const a = createSequentialIds("x");
    const b = createSequentialIds("x");
    for (const kind of Object.keys(ID_PREFIXES) as IdKind[]) {
      const first = a.next(kind);
      expect(first).toBe(b.next(kind));
      expect(first.startsWith(`${ID_PREFIXES[kind]}_x_`)).toBe(true);
    }
    expect(a.next("run")).toBe("run_x_0002");
    expect(RunId.parse(a.next("run"))).toBe("run_x_0003");
  });

  it("schemas reject ids of another kind with a readable message", () => {
    const result = ThreadId.safeParse("run_1");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain("ThreadId");
    expect(ThreadId.safeParse("thr_").success).toBe(false);
    expect(ThreadId.safeParse("thr_a b").success).toBe(false);
  });

  it("asId brands trusted strings and refuses wrong prefixes", () => {
    expect(asId("thread", "thr_1")).toBe("thr_1");
    expect(() => asId("thread", "run_1")).toThrow(/thread id/);
  });
});
