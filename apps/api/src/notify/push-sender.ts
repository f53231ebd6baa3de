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
 * server's VAPID key by `web-push`, POSTed to the device's push service. The transport is ours
 * (`web-push` itself speaks https only, and a self-hosted push service on loopback may not). A
 * transient failure is `Retryable`; a gone device is `SubscriptionGone`; anything else is final.
 */
export async function sendPush(
  vapid: VapidKeys,
  subscription: PushSubscriptionInput,
  payload: string,
): Promise<void> {
  const request = webpush.generateRequestDetails(subscription, payload, {
    vapidDetails: { subject: SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 3_600,
    contentEncoding: "aes128gcm",
  });
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body as Buffer,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Retryable(error instanceof Error ? error.message : String(error));
  }
  await response.body?.cancel();
  if (response.ok) return;
  const why = `the push service answered HTTP ${response.status}`;
  if (response.status === 404 || response.status === 410) throw new SubscriptionGone(why);
  if (response.status === 429 || response.status >= 500) throw new Retryable(why);
  throw new Error(why);
}
