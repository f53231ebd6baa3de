import { MemoryRuntimeLeases } from "@skein/db";
import { describe, expect, it } from "vitest";
import { CLAIM_PREFIX, EffectClaims } from "./effect-claims.ts";

// Issue 35: the claim the command gate takes before a command's outside effects, on the lease
// table two instances share (here the embedded store's, in memory).

const claimsOn = (leases: MemoryRuntimeLeases, owner: string, waitMs = 5_000) =>
  new EffectClaims({ leases, owner, ttlMs: 200, waitMs });

describe("issue 35: effect claims", () => {
  it("two instances on one key run one after the other, never together", async () => {
    const leases = new MemoryRuntimeLeases();
    const [a, b] = [claimsOn(leases, "A"), claimsOn(leases, "B")];
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside -= 1;
    };
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).exclusive("command:x", work)),
    );
    expect(most).toBe(1);
    expect(await leases.list()).toEqual([]);
  });

  it("a holder that died (no renewal) lets its claim expire; a waiter then takes it", async () => {
    const leases = new MemoryRuntimeLeases();
    await leases.acquire(`${CLAIM_PREFIX}command:y`, "dead", 100);
    const ran = await claimsOn(leases, "B").exclusive("command:y", async () => "ran");
    expect(ran).toBe("ran");
  });

  it("a claim held past the wait bound is refused in words, and changes nothing", async () => {
    const leases = new MemoryRuntimeLeases();
    await leases.acquire(`${CLAIM_PREFIX}command:z`, "A", 60_000);
    let ran = false;
    const refused = claimsOn(leases, "B", 100).exclusive("command:z", async () => {
      ran = true;
    });
    await expect(refused).rejects.toThrow(
      /still being applied by Skein instance A.*same command id/,
    );
    expect(ran).toBe(false);
  });

  it("a failing body gives the claim up", async () => {
    const leases = new MemoryRuntimeLeases();
    const a = claimsOn(leases, "A");
    await expect(
      a.exclusive("command:w", async () => {
        throw new Error("git failed");
      }),
    ).rejects.toThrow("git failed");
    expect(await leases.list()).toEqual([]);
    expect(await a.exclusive("command:w", async () => 1)).toBe(1);
  });
});
