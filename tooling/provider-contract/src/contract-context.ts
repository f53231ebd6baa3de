import {
  type AdapterRuntimeMode,
  isCapabilityUnsupported,
  type ProviderCapabilityFlags,
  type ProviderCapabilityName,
  type ProviderSessionHandle,
  type ThreadSettings,
} from "@skein/domain/provider";
import { expect } from "vitest";
import type { ProviderContractHarness, ProviderContractHarnessFactory } from "./harness.ts";

/**
 * Per-test state of the contract suite: the current harness and the sessions a test opened, so
 * teardown can close them even when an assertion failed halfway.
 */
export class ContractContext {
  private current: ProviderContractHarness | null = null;
  private sessions: ProviderSessionHandle[] = [];
  private opened = 0;

  constructor(private readonly createHarness: ProviderContractHarnessFactory) {}

  get harness(): ProviderContractHarness {
    if (!this.current) throw new Error("provider contract: no harness (outside a test?)");
    return this.current;
  }

  get capabilities(): ProviderCapabilityFlags {
    return this.harness.adapter.capabilities;
  }

  async setUp(): Promise<void> {
    this.current = await this.createHarness();
  }

  async tearDown(): Promise<void> {
    const sessions = this.sessions.splice(0);
    const harness = this.current;
    this.current = null;
    try {
      for (const session of sessions) if (session.isAlive()) await session.close();
    } finally {
      await harness?.dispose();
    }
  }

  async openSession(): Promise<ProviderSessionHandle> {
    this.opened += 1;
    const session = await this.harness.adapter.openSession({
      providerSessionId: `pss_contract_${this.opened}`,
      cwd: this.harness.cwd,
    });
    this.sessions.push(session);
    return session;
  }

  settings(runtimeMode: AdapterRuntimeMode = "full-access"): ThreadSettings {
    return { cwd: this.harness.cwd, runtimeMode };
  }

  /**
   * The contract for a missing capability: the operation fails with CapabilityUnsupportedError
   * and sends the model nothing on the way.
   */
  async expectUnsupported(
    capability: ProviderCapabilityName,
    operation: () => Promise<unknown>,
  ): Promise<void> {
    const before = this.harness.recordedConversationRequests().length;
    const outcome = await operation().then(
      () => "resolved",
      (error: unknown) => error,
    );
    expect(
      isCapabilityUnsupported(outcome),
      `${capability} is off, so the operation must throw CapabilityUnsupportedError; got ${String(outcome)}`,
    ).toBe(true);
    expect(this.harness.recordedConversationRequests()).toHaveLength(before);
  }
}
