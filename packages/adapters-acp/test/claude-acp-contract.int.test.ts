import { describeProviderContract } from "@skein/provider-contract";
import { anthropicContractHarness } from "@skein/provider-contract/anthropic";
import { createClaudeAcpHarness } from "./support/claude-acp-harness.ts";

describeProviderContract("claude-agent-acp configured by SKEIN_ACP_AGENTS (B18)", async () =>
  anthropicContractHarness(await createClaudeAcpHarness()),
);
