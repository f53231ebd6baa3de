import { expect } from "vitest";
import type { ConversationMessage, ProviderContractHarness } from "./harness.ts";

export type Mention = { role: ConversationMessage["role"] | "any"; text: string };

export const user = (text: string): Mention => ({ role: "user", text });
export const assistant = (text: string): Mention => ({ role: "assistant", text });
export const anyRole = (text: string): Mention => ({ role: "any", text });

export function lastRequest(harness: ProviderContractHarness): ConversationMessage[] {
  const requests = harness.recordedConversationRequests();
  const last = requests.at(-1);
  if (!last) throw new Error("the fake model recorded no conversation request");
  return last;
}

/**
 * Where a mention first occurs, as an offset into the conversation read front to back, so order
 * holds whether two texts arrive as separate parts or merged into one.
 */
function positionOf(conversation: ConversationMessage[], mention: Mention): number {
  let offset = 0;
  for (const message of conversation) {
    if (mention.role === "any" || message.role === mention.role) {
      const at = message.text.indexOf(mention.text);
      if (at >= 0) return offset + at;
    }
    offset += message.text.length + 1;
  }
  return -1;
}

function describeConversation(conversation: ConversationMessage[]): string {
  return conversation.map((m) => `${m.role}: ${JSON.stringify(m.text.slice(0, 120))}`).join("\n");
}

/** The conversation holds every mention, in the given order. */
export function expectInOrder(conversation: ConversationMessage[], mentions: Mention[]): void {
  const context = describeConversation(conversation);
  let previous = -1;
  for (const mention of mentions) {
    const at = positionOf(conversation, mention);
    expect(
      at,
      `${mention.role} ${JSON.stringify(mention.text)} missing from:\n${context}`,
    ).not.toBe(-1);
    expect(at, `${JSON.stringify(mention.text)} out of order in:\n${context}`).toBeGreaterThan(
      previous,
    );
    previous = at;
  }
}

/** No message of the conversation contains any of these texts. */
export function expectAbsent(conversation: ConversationMessage[], texts: string[]): void {
  const context = describeConversation(conversation);
  for (const text of texts) {
    expect(positionOf(conversation, anyRole(text)), `${text} present in:\n${context}`).toBe(-1);
  }
}
