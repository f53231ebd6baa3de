import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExtraRegistration, providerRegistry } from "@skein/api";
import { isBuiltinProviderId, PROVIDER_IDS } from "@skein/domain/provider";
import { describeProviderContract } from "@skein/provider-contract";
import { anthropicContractHarness } from "@skein/provider-contract/anthropic";
import { afterAll, describe, expect, it } from "vitest";
import { createScriptedAdapter, SCRIPTED_CAPABILITIES } from "../src/index.ts";
import { createScriptedHarness, type ScriptedHarness } from "./support/scripted-harness.ts";

/**
 * Issue 27: a provider package plugs in with one registration and nothing else. The scripted
 * agent is registered here the way a host registers a provider in code (`extra`), and the
 * provider contract runs on every provider of the resulting registry that is not built in
 * (built-in ones run it in their own packages, against their own runtimes).
 */

/** The world of the test running now: its adapter opens on it, as the server's own opens on its environment. */
let world: ScriptedHarness | null = null;

const scripted: ExtraRegistration = {
  id: "scripted",
  displayName: "Scripted agent",
  label: "Scripted",
  capabilities: SCRIPTED_CAPABILITIES,
  createAdapter: () => {
    if (!world) throw new Error("no test world: the adapter is made inside a contract test");
    return createScriptedAdapter({ id: "scripted", env: world.env });
  },
};

// Where the server would look for configured agents (agents.json): empty, so none.
const dataDir = mkdtempSync(join(tmpdir(), "skein-scripted-data-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const registered = await providerRegistry({ env: {}, dataDir, extra: [scripted] });
const unregistered = await providerRegistry({ env: {}, dataDir });
const plugins = (registry: typeof registered) => registry.filter((r) => !isBuiltinProviderId(r.id));

for (const registration of plugins(registered)) {
  describeProviderContract(registration.displayName, async () => {
    world = await createScriptedHarness();
    const harness = world;
    const adapter = registration.createAdapter();
    return anthropicContractHarness({ ...harness, adapter, dispose: () => harness.dispose() });
  });
}

describe("issue 27: registering a provider package", () => {
  it("puts it in the registry after the built-in ones; the domain's provider list stays the product's", () => {
    expect(registered.map((r) => r.id)).toEqual([...PROVIDER_IDS, "scripted"]);
    expect(unregistered.map((r) => r.id)).toEqual([...PROVIDER_IDS]);
    expect(isBuiltinProviderId("scripted")).toBe(false);
  });

  it("makes the contract suite run on it, and only on what is registered", ({ task }) => {
    const contracts = (task.file.tasks ?? []).filter((t) => t.name.startsWith("provider contract"));
    expect(contracts.map((t) => t.name)).toEqual(["provider contract: Scripted agent"]);
    expect(contracts[0]?.type === "suite" && contracts[0].tasks.length).toBeGreaterThanOrEqual(10);
    expect(plugins(unregistered)).toEqual([]);
  });
});
