import { describeProviderContract } from "@skein/provider-contract";
import {
  claudeConversationOf,
  claudeReply,
  createClaudeAcpHarness,
} from "./support/claude-acp-harness.ts";

describeProviderContract("claude-agent-acp configured by SKEIN_ACP_AGENTS (B18)", async () => {
  const harness = await createClaudeAcpHarness();
  return {
    adapter: harness.adapter,
    cwd: harness.cwd,
    script: (...replies) => harness.server.enqueue(...replies.map(claudeReply)),
    recordedConversationRequests: () =>
      harness.server
        .conversationRequests()
        .filter((r) => r.agent === "main")
        .map(claudeConversationOf),
    dispose: () => harness.dispose(),
  };
});
