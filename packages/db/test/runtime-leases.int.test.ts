import { expect, it } from "vitest";
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
