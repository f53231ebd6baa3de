import { z } from "zod";

export const ProviderKind = z.enum(["codex", "claude"]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** ISO-8601 UTC timestamp as produced by `Date#toISOString()`; supplied through CommandMeta. */
export const IsoTimestamp = z.iso.datetime();
export type IsoTimestamp = z.infer<typeof IsoTimestamp>;

/** An opaque provider-native reference (thread, turn, item, request ids as the provider spells them). */
export const NativeRef = z.string().min(1).max(500);
export type NativeRef = z.infer<typeof NativeRef>;

export const RuntimeMode = z.enum(["approval-required", "full-access"]);
export type RuntimeMode = z.infer<typeof RuntimeMode>;

export const InteractionMode = z.enum(["default", "plan"]);
export type InteractionMode = z.infer<typeof InteractionMode>;

/** The model picked for later runs; `null` lets the provider use its own default. */
export const ModelSelection = z.object({ model: z.string().min(1).nullable() });
export type ModelSelection = z.infer<typeof ModelSelection>;

export const Attachment = z.object({
  name: z.string().min(1),
  mimeType: z.string().min(1),
  /** Where the bytes live (path or URL); attachments are never inlined into events. */
  ref: z.string().min(1),
  sizeBytes: z.number().int().nonnegative().nullable(),
});
export type Attachment = z.infer<typeof Attachment>;

export const TokenUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

export const RunOrdinal = z.number().int().positive();
