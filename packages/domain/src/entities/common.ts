import { z } from "zod";
import {
  CONFIGURED_PROVIDER_ID,
  type ConfiguredProviderId,
  isBuiltinProviderId,
  PROVIDER_IDS,
} from "../provider/providers.ts";

/** A built-in provider's id (see provider/providers.ts). */
export const BuiltinProviderKind = z.enum(PROVIDER_IDS);

/** B18: a configured ACP agent's id; whether this server runs it is checked where it is used. */
export const ConfiguredProviderKind = z
  .string()
  .regex(CONFIGURED_PROVIDER_ID, "a provider id is 2–32 lowercase letters, digits or dashes")
  .refine((id) => !isBuiltinProviderId(id))
  .transform((id) => id as ConfiguredProviderId);

/** A provider's id: a built-in one, or a configured agent's (see provider/providers.ts). */
export const ProviderKind = z.union([BuiltinProviderKind, ConfiguredProviderKind]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** ISO-8601 UTC timestamp as produced by `Date#toISOString()`; supplied through CommandMeta. */
export const IsoTimestamp = z.iso.datetime();
export type IsoTimestamp = z.infer<typeof IsoTimestamp>;

/** An opaque provider-native reference (thread, turn, item, request ids as the provider spells them). */
export const NativeRef = z.string().min(1).max(500);
export type NativeRef = z.infer<typeof NativeRef>;

/**
 * B8/E18: where one frame sits in the raw provider log (the rotating log's `<file>:<line>`). A
 * correlation ref for diagnostics: nothing in the domain reads the frame behind it.
 */
export const RawLogRef = z.string().min(1).max(200);
export type RawLogRef = z.infer<typeof RawLogRef>;

/** The raw frames an item or node came from: its first and latest frame, in log order. */
export const RawFrames = z.object({ first: RawLogRef, last: RawLogRef });
export type RawFrames = z.infer<typeof RawFrames>;

export const RuntimeMode = z.enum(["approval-required", "full-access"]);
export type RuntimeMode = z.infer<typeof RuntimeMode>;

export const InteractionMode = z.enum(["default", "plan"]);
export type InteractionMode = z.infer<typeof InteractionMode>;

/** A provider's reasoning-effort level as it names it (Codex `low`…`xhigh`, Claude `low`…`max`). */
export const ReasoningEffort = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z0-9_-]+$/, "an effort level is a lowercase word");
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

/**
 * The model (and reasoning effort) picked for later runs; `null`/absent lets the provider use
 * its own default.
 */
export const ModelSelection = z.object({
  model: z.string().min(1).nullable(),
  effort: ReasoningEffort.nullable().optional(),
});
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
  /** What the provider says the tokens cost, in US dollars (Claude reports it; Codex does not). */
  costUsd: z.number().nonnegative().finite().optional(),
  /**
   * Issue 29 context meter: the tokens the conversation filled in the model's context window at
   * the latest model response, and that window's size, where the runtime reports them (Codex).
   * A snapshot, not a count: a sum keeps the later one.
   */
  contextTokens: z.number().int().nonnegative().optional(),
  contextWindow: z.number().int().positive().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * Usage summed field by field; an optional field stays absent unless one side reports it, so a
 * total never claims a cost or a cache figure no provider gave.
 */
export function addTokenUsage(a: TokenUsage | null | undefined, b: TokenUsage): TokenUsage {
  if (!a) return b;
  const sum = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  const cachedInputTokens = sum(a.cachedInputTokens, b.cachedInputTokens);
  const reasoningTokens = sum(a.reasoningTokens, b.reasoningTokens);
  const costUsd = sum(a.costUsd, b.costUsd);
  // The context figures are the latest reading (b when it has one), never added up.
  const context = b.contextTokens !== undefined ? b : a;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(context.contextTokens !== undefined ? { contextTokens: context.contextTokens } : {}),
    ...(context.contextWindow !== undefined ? { contextWindow: context.contextWindow } : {}),
  };
}

export const RunOrdinal = z.number().int().positive();
