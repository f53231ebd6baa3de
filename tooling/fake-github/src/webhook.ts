import { createHmac, randomUUID } from "node:crypto";

export type WebhookDelivery = {
  /** Where to POST it (Skein's `/webhooks/github`). */
  url: string;
  /** The secret to sign with; a different one than the receiver's makes a bad signature. */
  secret: string;
  /** `X-GitHub-Event`: pull_request, check_run, status, pull_request_review, … */
  event: string;
  payload: unknown;
  /** `X-GitHub-Delivery`; a repeat delivery reuses the id. */
  deliveryId?: string;
  /** Extra headers (e.g. an Origin or a cookie a browser would send). */
  headers?: Record<string, string>;
};

/** GitHub's signature: `sha256=` + hex HMAC-SHA256 of the raw body. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function deliverWebhook(delivery: WebhookDelivery): Promise<Response> {
  const body = JSON.stringify(delivery.payload);
  return fetch(delivery.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/fake",
      "x-github-event": delivery.event,
      "x-github-delivery": delivery.deliveryId ?? randomUUID(),
      "x-hub-signature-256": signWebhook(delivery.secret, body),
      ...delivery.headers,
    },
    body,
  });
}
