import { describeProviderContract } from "@skein/provider-contract";
import {
  createGeminiHarness,
  geminiConversationOf,
  geminiReply,
} from "./support/gemini-harness.ts";

describeProviderContract("gemini cli (acp)", async () => {
  const harness = await createGeminiHarness();
  return {
    adapter: harness.adapter,
    cwd: harness.cwd,
    script: (...replies) => harness.server.enqueue(...replies.map(geminiReply)),
    recordedConversationRequests: () =>
      harness.server.conversationRequests().map(geminiConversationOf),
    dispose: () => harness.dispose(),
  };
});
