import { describeProviderContract } from "@skein/provider-contract";
import { anthropicContractHarness } from "@skein/provider-contract/anthropic";
import { createAdapterHarness } from "./support/adapter-harness.ts";

describeProviderContract("claude agent sdk", async () => {
  const harness = await createAdapterHarness();
  return anthropicContractHarness({ ...harness, cwd: harness.settings.cwd });
});
