import {
  type AnthropicRecordedRequest,
  type AnthropicReply,
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
  type FakeReply,
  functionCallOutputs,
  type ResponsesRequestBody,
  responsesTextReply,
} from "@skein/fake-models";

/**
 * An outside agent's fake model, scripted to use Skein's MCP tools: each step is a tool call whose
 * arguments may use what the earlier calls answered (a thread id, a run id), and the last step is
 * the agent's closing text. The same script drives the real Codex and the real Claude Code; only
 * how each names an MCP tool and hands back its answer differs.
 */
export type Answers = ReadonlyArray<Record<string, unknown>>;
export type AgentStep =
  | { tool: string; args: (answers: Answers) => Record<string, unknown> }
  | { say: (answers: Answers) => string };

/** A tool answer as the agent's runtime hands it back: JSON, maybe after a preamble (Codex). */
export function answerOf(text: string): Record<string, unknown> {
  const start = text.indexOf("{");
  try {
    return JSON.parse(start < 0 ? text : text.slice(start)) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

function stepAfter(steps: readonly AgentStep[], answers: Answers): AgentStep {
  const step = steps[answers.length];
  if (!step) throw new Error(`the script has no step after ${answers.length} answers`);
  return step;
}

/** Codex: MCP tools are functions in the `mcp__<server>` namespace; answers are call outputs. */
export function codexAgentModel(server: string, steps: readonly AgentStep[]) {
  return (body: ResponsesRequestBody): FakeReply => {
    const answers = functionCallOutputs(body).map((o) => answerOf(o.output));
    const step = stepAfter(steps, answers);
    if ("say" in step) return responsesTextReply(step.say(answers));
    return {
      kind: "response",
      items: [
        {
          type: "function_call",
          namespace: `mcp__${server}`,
          name: step.tool,
          arguments: step.args(answers),
        },
      ],
    };
  };
}

/** Claude Code: MCP tools are `mcp__<server>__<tool>`; answers are tool results. */
export function claudeAgentModel(server: string, steps: readonly AgentStep[]) {
  return (request: AnthropicRecordedRequest): AnthropicReply => {
    const answers = anthropicToolResults(request).map((r) => answerOf(r.text));
    const step = stepAfter(steps, answers);
    if ("say" in step) return anthropicTextReply(step.say(answers));
    return anthropicToolUseReply(`mcp__${server}__${step.tool}`, step.args(answers));
  };
}
