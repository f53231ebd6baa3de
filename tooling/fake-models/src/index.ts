export {
  type CodexTestHome,
  type CodexTestHomeOptions,
  createCodexTestHome,
} from "./codex-test-home.ts";
export {
  applyPatchReply,
  collaborationModes,
  type ExecCommandOptions,
  execCommandReply,
  type FakeOutputItem,
  type FakeReply,
  type FakeUsage,
  forAgent,
  functionCallReply,
  httpErrorReply,
  notForAgent,
  proposedPlanReply,
  type ReplyMatcher,
  reasoningReply,
  responsesSlowTextReply,
  responsesTextReply,
  spawnAgentReply,
  type TextReplyOptions,
} from "./openai-responses-replies.ts";
export {
  conversationText,
  functionCallOutputs,
  inputItems,
  isResponsesRequestBody,
  messageTexts,
  type RecordedHttpRequest,
  type ResponsesRequestBody,
} from "./openai-responses-request.ts";
export {
  type FakeResponsesServer,
  type FakeResponsesServerOptions,
  startFakeResponsesServer,
} from "./openai-responses-server.ts";
export {
  encodeSseEvent,
  type ResponsesStreamEvent,
  responseEvents,
} from "./openai-responses-sse.ts";
export {
  type FakeMessagesServer,
  type FakeMessagesServerOptions,
  startFakeMessagesServer,
} from "./anthropic-messages-server.ts";
export {
  type AnthropicContentBlock,
  type AnthropicRecordedMessage,
  type AnthropicRecordedRequest,
  type AnthropicRequestKind,
  type AnthropicToolResult,
  anthropicAgentOf,
  anthropicAssistantTexts,
  anthropicLatestUserText,
  anthropicMessages,
  anthropicRequestText,
  anthropicToolNames,
  anthropicToolResults,
  anthropicUserTexts,
  classifyAnthropicRequest,
} from "./anthropic-requests.ts";
export {
  type AnthropicErrorReply,
  type AnthropicMessageReply,
  type AnthropicReply,
  type AnthropicReplyBlock,
  type AnthropicReplyOptions,
  anthropicBashReply,
  anthropicEditReply,
  anthropicErrorReply,
  anthropicExitPlanModeReply,
  anthropicSlowTextReply,
  anthropicTaskReply,
  anthropicTextReply,
  anthropicThinkingReply,
  anthropicTodoWriteReply,
  anthropicToolUseReply,
  anthropicWriteReply,
} from "./anthropic-script.ts";
export {
  type AnthropicStreamEvent,
  anthropicMessageJson,
  anthropicStreamEvents,
  encodeAnthropicSse,
} from "./anthropic-sse.ts";
export {
  type FaultProxy,
  type FaultProxyOptions,
  type FaultProxyRequest,
  type ModelFault,
  startFaultProxy,
} from "./fault-proxy.ts";
export {
  type FakeGeminiServer,
  type FakeGeminiServerOptions,
  startFakeGeminiServer,
} from "./gemini-server.ts";
export {
  type GeminiContent,
  type GeminiFunctionResponse,
  type GeminiPart,
  type GeminiRecordedRequest,
  type GeminiRequestKind,
  classifyGeminiRequest,
  geminiContents,
  geminiFunctionResponses,
  geminiFunctionResponseText,
  geminiLatestUserText,
  geminiPartText,
  geminiRequestText,
  geminiToolNames,
} from "./gemini-requests.ts";
export {
  type GeminiErrorReply,
  type GeminiMessageReply,
  type GeminiReply,
  type GeminiReplyOptions,
  type GeminiReplyPart,
  geminiErrorReply,
  geminiFunctionCallReply,
  geminiShellReply,
  geminiSlowTextReply,
  geminiTextReply,
  geminiThoughtReply,
  geminiWriteFileReply,
} from "./gemini-script.ts";
export { type GeminiResponseChunk, encodeGeminiSse, geminiStreamChunks } from "./gemini-sse.ts";
export { type GeminiTestHome, createGeminiTestHome } from "./gemini-test-home.ts";
export { closedLoopbackUrl, createOpenAiCodexHome } from "./offline-homes.ts";
export { type RecordedPost, startPostRecorder } from "./post-recorder.ts";
