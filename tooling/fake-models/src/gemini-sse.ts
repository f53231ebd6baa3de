import type { GeminiMessageReply, GeminiReplyPart } from "./gemini-script.ts";

/** One `GenerateContentResponse` as the Gemini API sends it (a whole body, or one SSE chunk). */
export type GeminiResponseChunk = {
  candidates: Array<{
    content: { role: "model"; parts: Array<Record<string, unknown>> };
    finishReason?: string;
    index: number;
  }>;
  usageMetadata?: Record<string, number>;
  modelVersion: string;
  responseId: string;
};

function chunks(text: string, size: number | undefined): string[] {
  if (size === undefined || size <= 0 || text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function wirePart(part: GeminiReplyPart): Record<string, unknown> {
  switch (part.type) {
    case "text":
      return { text: part.text };
    case "thought":
      return { text: part.text, thought: true };
    case "functionCall":
      return {
        functionCall: {
          name: part.name,
          args: part.args,
          ...(part.id === undefined ? {} : { id: part.id }),
        },
      };
  }
}

function usageMetadata(reply: GeminiMessageReply): Record<string, number> {
  const prompt = reply.usage?.promptTokens ?? 12;
  const candidates = reply.usage?.candidatesTokens ?? 7;
  const thoughts = reply.usage?.thoughtsTokens ?? 0;
  const usage: Record<string, number> = {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
  };
  if (thoughts > 0) usage.thoughtsTokenCount = thoughts;
  if (reply.usage?.cachedTokens !== undefined)
    usage.cachedContentTokenCount = reply.usage.cachedTokens;
  return usage;
}

function chunkOf(
  parts: Array<Record<string, unknown>>,
  identity: { model: string; responseId: string },
): GeminiResponseChunk {
  return {
    candidates: [{ content: { role: "model", parts }, index: 0 }],
    modelVersion: identity.model,
    responseId: identity.responseId,
  };
}

/**
 * The SSE chunks of one scripted reply, in wire order: text and thoughts split per `chunkSize`,
 * each function call whole, and the last chunk carrying `finishReason` and `usageMetadata`.
 */
export function geminiStreamChunks(
  reply: GeminiMessageReply,
  identity: { model: string; responseId: string },
): GeminiResponseChunk[] {
  const out: GeminiResponseChunk[] = [];
  for (const part of reply.parts) {
    if (part.type === "functionCall") {
      out.push(chunkOf([wirePart(part)], identity));
      continue;
    }
    for (const text of chunks(part.text, reply.chunkSize)) {
      out.push(chunkOf([wirePart({ ...part, text })], identity));
    }
  }
  const last = out.at(-1) ?? chunkOf([{ text: "" }], identity);
  if (out.length === 0) out.push(last);
  const candidate = last.candidates[0];
  if (candidate) candidate.finishReason = reply.finishReason ?? "STOP";
  last.usageMetadata = usageMetadata(reply);
  return out;
}

/** The same reply as one `generateContent` response body. */
export function geminiResponseJson(
  reply: GeminiMessageReply,
  identity: { model: string; responseId: string },
): GeminiResponseChunk {
  const whole = chunkOf(reply.parts.map(wirePart), identity);
  const candidate = whole.candidates[0];
  if (candidate) candidate.finishReason = reply.finishReason ?? "STOP";
  whole.usageMetadata = usageMetadata(reply);
  return whole;
}

export function encodeGeminiSse(chunk: GeminiResponseChunk): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}
