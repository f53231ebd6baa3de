import { describeProviderContract } from "@skein/provider-contract";
import { anthropicContractHarness } from "@skein/provider-contract/anthropic";
import { createScriptedAdapter } from "../src/scripted-adapter.ts";
import { createScriptedHarness } from "./support/scripted-harness.ts";

describeProviderContract("scripted agent", async () => {
  const harness = await createScriptedHarness();
  const adapter = createScriptedAdapter({ env: harness.env });
  return anthropicContractHarness({ ...harness, adapter });
});
