import { expect, it } from "vitest";
import { LeaseFenceError } from "../src/index.ts";
import { InvalidAppendError } from "../src/errors.ts";
import { describeStores } from "./support/store-factory.ts";

const event = (n: number) => ({ type: "Noted", data: { n } });

// A run's appends are fenced by its thread's runtime lease: once another instance took the
// thread over, the instance that lost it can append nothing more, judged in the append itself.
describeStores("fenced appends", (stores) => {
  it("append while the owner holds the lease; refused with nothing written once another holds it or nobody does", async () => {
    const location = stores.location();
    const a = await stores.open(location);
    const b = stores.kind === "postgres" ? await stores.open(location) : a;
    await a.runtimeLeases.acquire("t1", "A", 30);
    const fenceA = { fence: { lease: "t1", owner: "A" } };
    expect((await a.append("s", 0, [event(1)], fenceA)).streamVersion).toBe(1);

    // A's lease expired but nobody took the thread over: A may still write.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await a.append("s", 1, [event(2)], fenceA)).streamVersion).toBe(2);

    expect((await b.runtimeLeases.acquire("t1", "B", 60_000)).acquired).toBe(true);
    const refused = await a.append("s", 2, [event(3)], fenceA).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LeaseFenceError);
    expect((refused as Error).message).toMatch(
      /instance A no longer holds .* t1 \(instance B does\)/,
    );
    // Any version, a batch of several, a command id: none of it gets in.
    await expect(
      a.append("s", "any", [event(3), event(4)], { ...fenceA, commandId: "cmd-1" }),
    ).rejects.toBeInstanceOf(LeaseFenceError);
    expect(await a.streamVersion("s")).toBe(2);
    expect(await a.findReceipt("cmd-1")).toBeNull();
    // The new owner's fenced appends go in; unfenced appends are not judged by leases.
    const fenceB = { fence: { lease: "t1", owner: "B" } };
    expect((await b.append("s", 2, [event(3)], fenceB)).streamVersion).toBe(3);
    expect((await a.append("s", 3, [event(4)])).streamVersion).toBe(4);

    await b.runtimeLeases.release("t1", "B");
    await expect(b.append("s", 4, [event(5)], fenceB)).rejects.toThrow(/it was released/);
    expect(await b.streamVersion("s")).toBe(4);
  });

  it("a fence without a lease or an owner is refused before it is queued", async () => {
    const store = await stores.fresh();
    for (const fence of [
      { lease: "", owner: "A" },
      { lease: "t", owner: "" },
      { lease: "t", owner: "x".repeat(201) },
      { lease: 7, owner: "A" },
    ]) {
      await expect(
        store.append("s", 0, [event(1)], { fence: fence as never }),
      ).rejects.toBeInstanceOf(InvalidAppendError);
    }
    expect(await store.streamVersion("s")).toBe(0);
  });
});
