import fs from "node:fs";
import path from "node:path";
import webpush from "web-push";

export type VapidKeys = { publicKey: string; privateKey: string };

/**
 * The server's VAPID key pair (RFC 8292), generated into the data dir on first start and kept:
 * browsers bind their subscriptions to the public key, so a new pair would orphan them all.
 * Written owner-only, created exclusively so two processes starting together keep one pair.
 */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, "push", "vapid.json");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fresh = webpush.generateVAPIDKeys();
    fs.writeFileSync(file, JSON.stringify(fresh), { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<VapidKeys>;
  if (typeof stored.publicKey !== "string" || typeof stored.privateKey !== "string") {
    throw new Error(`${file} is not a VAPID key pair; move it away and Skein makes a new one`);
  }
  return { publicKey: stored.publicKey, privateKey: stored.privateKey };
}
