import { z } from "zod";

/** B20: what a person can be told about. */
export const NOTICE_KINDS = ["approval", "question", "finished", "failed"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

const Clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time of day as HH:MM, e.g. 22:00");

function zoneIsKnown(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** From `from` until `to` in the person's time zone nothing is sent (may wrap past midnight). */
export const QuietHours = z
  .object({
    from: Clock,
    to: Clock,
    timeZone: z
      .string()
      .max(64)
      .refine((zone) => zoneIsKnown(zone), "an IANA time zone, e.g. Europe/Berlin or UTC"),
  })
  .refine((q) => q.from !== q.to, "quiet hours must start and end at different times");
export type QuietHours = z.infer<typeof QuietHours>;

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+=*$/, "base64url text");

/** What a browser's `PushSubscription.toJSON()` gives: where to send, and the keys to encrypt to. */
export const PushSubscriptionInput = z.object({
  endpoint: z
    .string()
    .url()
    .max(2_000)
    .refine((url) => /^https?:\/\//.test(url), "an http(s) push service URL"),
  keys: z.object({ p256dh: Base64Url.max(200), auth: Base64Url.max(100) }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** One person's choices on one device (B20): what to be told, what not, and when not at all. */
export const PushSettings = z.object({
  kinds: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length),
  mutedThreadIds: z.array(z.string().min(1).max(200)).max(1_000),
  mutedProjectIds: z.array(z.string().min(1).max(200)).max(1_000),
  quietHours: QuietHours.nullable(),
});
export type PushSettings = z.infer<typeof PushSettings>;

export const DEFAULT_PUSH_SETTINGS: PushSettings = {
  kinds: [...NOTICE_KINDS],
  mutedThreadIds: [],
  mutedProjectIds: [],
  quietHours: null,
};

/** B20: Web Push as this server offers it (null: not set up on this host). */
export interface SkeinNotifications {
  /** The VAPID public key browsers subscribe with (base64url). */
  publicKey(): string;
  subscribe(
    subscription: PushSubscriptionInput,
    settings: PushSettings,
  ): Promise<{ subscriberId: string }>;
  /** The device's settings; NOT_FOUND for an endpoint that never subscribed. */
  settings(endpoint: string): Promise<PushSettings>;
  unsubscribe(endpoint: string): Promise<void>;
}
