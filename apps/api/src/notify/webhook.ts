import { createHmac } from "node:crypto";
import { Retryable } from "./retry.ts";

export type WebhookTarget = { url: string; secret: string };

/** `sha256=<hex>` HMAC of the exact body, as GitHub-style receivers check it. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * One signed POST of the notice to the person's chat tool (SKEIN_NOTIFY_WEBHOOK). Network
 * errors, timeouts, 429 and 5xx are `Retryable`; any other answer is final.
 */
export async function postWebhook(
  target: WebhookTarget,
  deliveryId: string,
  body: string,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-skein-delivery": deliveryId,
        "x-skein-signature": webhookSignature(target.secret, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Retryable(error instanceof Error ? error.message : String(error));
  }
  await response.body?.cancel();
  if (response.ok) return;
  const why = `the webhook answered HTTP ${response.status}`;
  if (response.status === 429 || response.status >= 500) throw new Retryable(why);
  throw new Error(why);
}
