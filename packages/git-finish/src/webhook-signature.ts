import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `signature` (the `X-Hub-Signature-256` header) is GitHub's HMAC-SHA256 of the raw body
 * under `secret`; compared in constant time. A missing secret verifies nothing.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Buffer,
  signature: string | undefined | null,
): boolean {
  if (!secret || !signature?.startsWith("sha256=")) return false;
  const expected = Buffer.from(
    `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`,
    "utf8",
  );
  const given = Buffer.from(signature, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
