import webpush from "web-push";
import type { PushSubscriptionInput } from "@skein/contract";
import { Retryable } from "./retry.ts";
import type { VapidKeys } from "./vapid-keys.ts";

/** The push service no longer knows the device (RFC 8030 404/410): its subscription is dropped. */
export class SubscriptionGone extends Error {
  override readonly name = "SubscriptionGone";
}

/** RFC 8292 asks for a contact; nothing here is ever mailed. */
const SUBJECT = "mailto:notifications@skein.invalid";

/**
 * One Web Push message, encrypted to the device's keys (RFC 8291, aes128gcm) and signed with the
 * server's VAPID key by `web-push`. A transient failure is `Retryable`; a gone device is
 * `SubscriptionGone`; anything else is final.
 */
export async function sendPush(
  vapid: VapidKeys,
  subscription: PushSubscriptionInput,
  payload: string,
): Promise<void> {
  try {
    await webpush.sendNotification(subscription, payload, {
      vapidDetails: { subject: SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: 3_600,
      timeout: 10_000,
      contentEncoding: "aes128gcm",
    });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    const why = error instanceof Error ? error.message : String(error);
    if (status === 404 || status === 410) throw new SubscriptionGone(why);
    if (status === undefined || status === 429 || status >= 500) throw new Retryable(why);
    throw error;
  }
}
