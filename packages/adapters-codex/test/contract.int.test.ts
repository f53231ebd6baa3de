import {
  execCommandReply,
  type FakeReply,
  httpErrorReply,
  inputItems,
  type ResponsesRequestBody,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import {
  type ContractReply,
  type ConversationMessage,
  describeProviderContract,
} from "@skein/provider-contract";
import { AdapterHarness } from "./support/adapter-harness.ts";

function codexReply(reply: ContractReply): FakeReply {
  switch (reply.kind) {
    case "text":
      return responsesTextReply(reply.text);
    case "slow-text":
      return responsesSlowTextReply(reply.chunks, reply.delayMs);
    case "command":
      return execCommandReply(reply.command);
    case "http-error":
      return httpErrorReply(reply.status, reply.message);
  }
}

/** Codex's own context message, sent as a user message ahead of the conversation. */
const INJECTED_CONTEXT = /^\s*<environment_context>/;

/** One recorded `/responses` body as the contract's provider-neutral conversation. */
function conversationOf(body: ResponsesRequestBody): ConversationMessage[] {
  return inputItems(body).flatMap((item): ConversationMessage[] => {
    if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      const output = typeof item.output === "string" ? item.output : JSON.stringify(item.output);
      return [{ role: "tool", text: output }];
    }
    const role = item.role;
    if (item.type !== "message" || (role !== "user" && role !== "assistant")) return [];
    if (!Array.isArray(item.content)) return [];
    return item.content.flatMap((part: unknown): ConversationMessage[] => {
      const text = typeof part === "object" && part !== null && "text" in part ? part.text : null;
      if (typeof text !== "string" || INJECTED_CONTEXT.test(text)) return [];
      return [{ role, text }];
    });
  });
}

describeProviderContract("codex app-server", async () => {
  const harness = await AdapterHarness.start();
  return {
    adapter: harness.adapter,
    cwd: harness.workdir,
    script: (...replies) => harness.server.enqueue(...replies.map(codexReply)),
    recordedConversationRequests: () => harness.server.requests.map(conversationOf),
    dispose: () => harness.close(),
  };
});
