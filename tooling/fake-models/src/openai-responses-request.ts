/**
 * Read-only helpers over recorded `POST /v1/responses` bodies, so tests can assert exactly what
 * history a client sent without re-deriving the Responses input format each time.
 */

/** A parsed request body. Only `input` is relied on; everything else is kept as sent. */
export type ResponsesRequestBody = Record<string, unknown> & { input: unknown[] };

export type RecordedHttpRequest = {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
};

export function isResponsesRequestBody(value: unknown): value is ResponsesRequestBody {
  return isRecord(value) && Array.isArray(value.input);
}

export function inputItems(body: ResponsesRequestBody, type?: string): Record<string, unknown>[] {
  return body.input.filter(isRecord).filter((item) => type === undefined || item.type === type);
}

/**
 * The text of every message with the given role, in order. User messages carry `input_text` parts;
 * assistant messages replayed as history carry `output_text` parts.
 */
export function messageTexts(body: ResponsesRequestBody, role: string): string[] {
  const texts: string[] = [];
  for (const item of inputItems(body, "message")) {
    if (item.role !== role || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isRecord(part) && typeof part.text === "string") texts.push(part.text);
    }
  }
  return texts;
}

/** All message text of any role, joined; handy for "contains / lacks" history assertions. */
export function conversationText(body: ResponsesRequestBody): string {
  return ["user", "assistant"].flatMap((role) => messageTexts(body, role)).join("\n");
}

export function functionCallOutputs(
  body: ResponsesRequestBody,
): { callId: string; output: string }[] {
  return inputItems(body, "function_call_output").map((item) => ({
    callId: String(item.call_id),
    output: typeof item.output === "string" ? item.output : JSON.stringify(item.output),
  }));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
