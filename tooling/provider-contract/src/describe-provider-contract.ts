import { afterEach, beforeEach, describe } from "vitest";
import { ContractContext } from "./contract-context.ts";
import type { ProviderContractHarnessFactory } from "./harness.ts";
import { describeSteerContract } from "./steer-contract.ts";
import { describeThreadContract } from "./thread-contract.ts";
import { describeTurnContract } from "./turn-contract.ts";

/**
 * The provider contract every adapter must pass, run against its real runtime and a scripted
 * fake model. No test is skipped for a missing capability: the test then asserts that the
 * operation throws CapabilityUnsupportedError before any model request, which is the contract.
 * Each test gets a fresh harness from `createHarness`.
 */
export function describeProviderContract(
  name: string,
  createHarness: ProviderContractHarnessFactory,
): void {
  describe(`provider contract: ${name}`, () => {
    const ctx = new ContractContext(createHarness);
    beforeEach(() => ctx.setUp());
    afterEach(() => ctx.tearDown());
    describeTurnContract(ctx);
    describeThreadContract(ctx);
    describeSteerContract(ctx);
  });
}
