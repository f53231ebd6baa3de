import { CommandId, NameText, UserText } from "@skein/domain";
import { z } from "zod";
import { MAX_TEXT_BYTES } from "../limits.ts";

/**
 * Shared input pieces; ids, enums and the text rules (B4: well-formed Unicode, no NUL in names)
 * come from @skein/domain so the API accepts what it stores.
 */

const tooLong = `must be at most ${MAX_TEXT_BYTES} bytes (${MAX_TEXT_BYTES / 1024} KiB)`;

/** Message, steer and handoff text: non-empty, well-formed, bounded in UTF-8 bytes (what we store and send). */
export const MessageText = UserText.refine(
  (text) => Buffer.byteLength(text, "utf8") <= MAX_TEXT_BYTES,
  tooLong,
);

/** Idempotency key (S4): a retry with the same id returns the first receipt, appends nothing. */
export const OptionalCommandId = CommandId.optional();

export const Title = NameText;

/** A model name; `null` (or leaving it out) lets the provider use its default. */
export const ModelName = NameText.nullable();

/** A `tracked` id this API handed out: a sequence number. */
export const LastEventId = z
  .string()
  .regex(/^\d{1,15}$/, "must be a sequence number from a previous event")
  .nullish();

/** A `tracked` id `events.watchRaw` handed out: a raw frame's id, or `start` (none yet). */
export const LastRawFrameId = z
  .string()
  .regex(/^(start|raw-\d{6,}\.jsonl:\d{1,12})$/, "must be a frame id from a previous message")
  .nullish();
