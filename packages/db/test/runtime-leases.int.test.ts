import { expect, it } from "vitest";
import { LeaseKeeper } from "../src/index.ts";
import { describeStores } from "./support/store-factory.ts";

// Same contract on both stores: the embedded one keeps leases in memory, PostgreSQL in a table
// that several instances share.
describeStores("runtime leases", (stores) => {
  it("one owner at a time; renew extends, release frees, an expired lease can be taken over", async () => {
    const location = stores.location();
    const a = await stores.open(location);
    // Instances sharing PostgreSQL share leases; the embedded store has one instance only.
    const b = stores.kind === "postgres" ? await stores.open(location) : a;
    expect(await a.runtimeLeases.acquire("t1", "A", 60_000)).toEqual({
      acquired: true,
      previous: null,
    });
    const refused = await b.runtimeLeases.acquire("t1", "B", 60_000);
    expect(refused).toMatchObject({ acquired: false, holder: { owner: "A", expired: false } });
    expect(await a.runtimeLeases.acquire("t1", "A", 60_000)).toMatchObject({
      acquired: true,
      previous: { owner: "A" },
    });
    expect(await a.runtimeLeases.renew("A", ["t1", "t2"], 60_000)).toEqual(["t1"]);
    expect(await b.runtimeLeases.renew("B", ["t1"], 60_000)).toEqual([]);
    await b.runtimeLeases.release("t1", "B");
    expect((await b.runtimeLeases.get("t1"))?.owner).toBe("A");
    await a.runtimeLeases.release("t1", "A");
    expect(await b.runtimeLeases.get("t1")).toBeNull();

    await a.runtimeLeases.acquire("t2", "A", 30);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await b.runtimeLeases.list()).toMatchObject([{ threadId: "t2", expired: true }]);
    const takeover = await b.runtimeLeases.acquire("t2", "B", 60_000);
    expect(takeover).toMatchObject({ acquired: true, previous: { owner: "A", expired: true } });
    expect(await a.runtimeLeases.renew("A", ["t2"], 60_000)).toEqual([]);
  });

  it("two instances racing for an expired lease: exactly one wins", async () => {
    if (stores.kind !== "postgres") return;
    const location = stores.location();
    const a = await stores.open(location);
    const b = await stores.open(location);
    await a.runtimeLeases.acquire("t", "dead", 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const results = await Promise.all([
      a.runtimeLeases.acquire("t", "A", 60_000),
      b.runtimeLeases.acquire("t", "B", 60_000),
    ]);
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
  });
});

describeStores("runtime leases: presence addresses and lease keepers", (stores) => {
  it("an acquire records the address (null by default); renewal keeps it; takeover replaces it", async () => {
    const location = stores.location();
    const a = await stores.open(location);
    const b = stores.kind === "postgres" ? await stores.open(location) : a;
    await a.runtimeLeases.acquire("instance:A", "A", 60_000, "http://a.internal:4317");
    await a.runtimeLeases.acquire("t1", "A", 60_000);
    expect(await b.runtimeLeases.get("instance:A")).toMatchObject({
      owner: "A",
      address: "http://a.internal:4317",
    });
    expect((await b.runtimeLeases.get("t1"))?.address).toBeNull();
    await a.runtimeLeases.renew("A", ["instance:A"], 60_000);
    expect((await b.runtimeLeases.get("instance:A"))?.address).toBe("http://a.internal:4317");
    await a.runtimeLeases.acquire("t2", "A", 20, "http://a.internal:4317");
    await new Promise((resolve) => setTimeout(resolve, 60));
    await b.runtimeLeases.acquire("t2", "B", 60_000, "http://b.internal:4317");
    expect(await a.runtimeLeases.get("t2")).toMatchObject({
      owner: "B",
      address: "http://b.internal:4317",
    });
  });

  it("a keeper announces its address, lists live instances, and reports a lease taken over as lost", async () => {
    const location = stores.location();
    const a = await stores.open(location);
    const b = stores.kind === "postgres" ? await stores.open(location) : a;
    const lost: string[] = [];
    const keeperA = new LeaseKeeper({
      leases: a.runtimeLeases,
      owner: "A",
      ttlMs: 300,
      renewEveryMs: 50,
      onLost: (threadId) => lost.push(threadId),
    });
    const keeperB = new LeaseKeeper({ leases: b.runtimeLeases, owner: "B", ttlMs: 300 });
    await keeperA.start();
    await keeperB.start();
    try {
      await keeperA.setAddress("http://127.0.0.1:4317");
      expect((await keeperB.presenceOf("A"))?.address).toBe("http://127.0.0.1:4317");
      expect(await keeperB.presenceOf("nobody")).toBeNull();
      expect([...(await keeperB.liveInstances())].sort()).toEqual(["A", "B"]);

      expect((await keeperA.acquire("t")).acquired).toBe(true);
      expect(await keeperA.foreignHolder("t")).toBeNull();
      // A hangs: its leases expire; B takes the thread over; A comes back and learns it lost it.
      keeperA.stopRenewal();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect([...(await keeperB.liveInstances())]).toEqual(["B"]);
      expect((await keeperB.acquire("t")).acquired).toBe(true);
      expect((await keeperA.foreignHolder("t"))?.owner).toBe("B");
      keeperA.resumeRenewal();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(lost).toEqual(["t"]);
      expect(keeperA.holds("t")).toBe(false);
      expect((await keeperB.presenceOf("A"))?.address).toBe("http://127.0.0.1:4317");
    } finally {
      await keeperA.close();
      await keeperB.close();
    }
  });
});
