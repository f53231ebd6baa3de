import { ProviderKind } from "@skein/domain";
import { PROVIDER_IDS, PROVIDERS, providerDisplayName } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { createRegisteredAdapters, PROVIDER_REGISTRY } from "./provider-registry.ts";

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
});
