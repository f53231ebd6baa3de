import { readFile } from "node:fs/promises";
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { TurnAttachment, TurnInput } from "@skein/domain/provider";

/** E16: what Claude takes with a message: images as image blocks, PDFs as document blocks. */
export const CLAUDE_ATTACHMENT_TYPES: readonly string[] = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
];

type Content = SDKUserMessage["message"]["content"];
type Block = Exclude<Content, string>[number];

async function attachmentBlock(file: TurnAttachment): Promise<Block> {
  const data = (await readFile(file.path)).toString("base64");
  if (file.mimeType === "application/pdf") {
    return {
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data },
      title: file.name,
    };
  }
  const media_type = file.mimeType as "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  return { type: "image", source: { type: "base64", media_type, data } };
}

/** The user message Claude Code receives for a turn's input. */
export async function userContent(input: TurnInput): Promise<Content> {
  // Claude Code runs its own `/compact` command when a message is just that.
  if (input.compact) return "/compact";
  const files = await Promise.all((input.attachments ?? []).map(attachmentBlock));
  if (!input.context && files.length === 0) return input.text;
  // The handoff goes ahead of the message as its own block, so it stays inspectable (E14).
  return [
    ...(input.context ? [{ type: "text" as const, text: input.context.text }] : []),
    { type: "text", text: input.text },
    ...files,
  ];
}
