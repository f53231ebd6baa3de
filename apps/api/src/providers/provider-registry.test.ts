import { ProviderKind } from "@skein/domain";
import {
  allCapabilities,
  isConfiguredProviderId,
  PROVIDER_IDS,
  PROVIDERS,
  providerDisplayName,
} from "@skein/domain/provider";
import { createScriptedProvider } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../env.ts";
import {
  createRegisteredAdapters,
  createServerAdapters,
  type ExtraRegistration,
  PROVIDER_REGISTRY,
  providerRegistry,
} from "./provider-registry.ts";

/** A provider a host registers in code (issue 27), its adapter the in-memory test provider. */
function extra(id: string): ExtraRegistration {
  return {
    id,
    displayName: `Extra ${id}`,
    label: id,
    capabilities: allCapabilities(),
    createAdapter: () => {
      if (!isConfiguredProviderId(id)) throw new Error(`unusable id ${id}`);
      return createScriptedProvider({ provider: id });
    },
  };
}

/** One configured ACP agent (B18); its adapter starts nothing until a session opens. */
const AGENT_ENV = {
  SKEIN_ACP_AGENTS: JSON.stringify([{ id: "my-agent", name: "My agent", command: "/bin/true" }]),
};
const NO_DATA_DIR = "/nonexistent-skein-data";

describe("the provider registry (issue 27)", () => {
  it("registers every provider id once, with the domain's names", () => {
    expect(Object.keys(PROVIDER_REGISTRY).sort()).toEqual([...PROVIDER_IDS].sort());
    for (const id of PROVIDER_IDS) {
      const registered = PROVIDER_REGISTRY[id];
      expect(registered.id).toBe(id);
      expect(registered.displayName).toBe(PROVIDERS[id].displayName);
      expect(providerDisplayName(id)).toBe(PROVIDERS[id].displayName);
    }
    expect(providerDisplayName("not-a-provider")).toBe("not-a-provider");
  });

  it("the domain's provider id accepts the registered ids and well-formed configured ids (B18), nothing else", () => {
    for (const id of PROVIDER_IDS) expect(ProviderKind.parse(id)).toBe(id);
    // Whether this server runs a configured id is the registry's answer, not the schema's.
    expect(ProviderKind.parse("gemini-unregistered")).toBe("gemini-unregistered");
    for (const bad of ["Gemini", "x", "has space", "-dash", "a".repeat(33), 42]) {
      expect(ProviderKind.safeParse(bad).success).toBe(false);
    }
  });

  it("each registration's factory makes its adapter, declaring the registered capabilities", () => {
    const adapters = createRegisteredAdapters();
    for (const id of PROVIDER_IDS) {
      expect(adapters[id].provider).toBe(id);
      expect(adapters[id].capabilities).toEqual(PROVIDER_REGISTRY[id].capabilities);
    }
  });

  it("issue 27: a provider registered in code comes after the built-in ones and the configured agents, and is served", async () => {
    const input = { env: AGENT_ENV, dataDir: NO_DATA_DIR, extra: [extra("toy")] };
    const registry = await providerRegistry(input);
    expect(registry.map((r) => r.id)).toEqual([...PROVIDER_IDS, "my-agent", "toy"]);
    const adapters = await createServerAdapters(input);
    expect(Object.keys(adapters)).toEqual([...PROVIDER_IDS, "my-agent", "toy"]);
    expect(Object.values(adapters).map((adapter) => adapter?.provider)).toEqual(
      Object.keys(adapters),
    );
    // Without one, the server runs only what the product registers.
    const plain = await providerRegistry({ env: {}, dataDir: NO_DATA_DIR });
    expect(plain.map((r) => r.id)).toEqual([...PROVIDER_IDS]);
  });

  it("issue 27: a registration whose id is malformed, a built-in's or already taken is refused in words; none is registered", async () => {
    const [builtin] = PROVIDER_IDS;
    const attempt = providerRegistry({
      env: AGENT_ENV,
      dataDir: NO_DATA_DIR,
      extra: [extra("fine"), extra("Not An Id"), extra(builtin), extra("my-agent"), extra("fine")],
    });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(
      `"Not An Id" is not a usable provider id (2–32 lowercase letters, digits, dashes); ` +
        `provider "${builtin}" is already registered; provider "my-agent" is already registered; ` +
        `provider "fine" is already registered`,
    );
  });
});
