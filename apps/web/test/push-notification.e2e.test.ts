import { createECDH } from "node:crypto";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import ece from "http_ece";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { startPostRecorder } from "../../../tooling/fake-models/src/index.ts";

/**
 * Push keys made by Chromium's WebCrypto (a P-256 key pair and a 16-byte auth secret, what a
 * browser's push subscription holds). Debian's Chromium has no push service of its own (its
 * `pushManager.subscribe` is refused), so the endpoint is a local push-service stand-in.
 */
async function browserKeys(page: Page) {
  return page.evaluate(async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ]);
    const b64 = (bytes: ArrayBuffer | Uint8Array) =>
      btoa(String.fromCharCode(...new Uint8Array(bytes)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    return {
      p256dh: b64(await crypto.subtle.exportKey("raw", pair.publicKey)),
      auth: b64(crypto.getRandomValues(new Uint8Array(16))),
      d: jwk.d as string,
    };
  });
}

/**
 * B20 end to end: the real API (its notifier, web-push) encrypts "needs your approval" to keys
 * Chromium made, the stand-in receives it, the test decrypts it with those keys, and Skein's
 * service worker in Chromium shows it as a notification that opens the exact request.
 */
describe.runIf(chromiumAvailable)("Web Push to Chromium (real API, real Codex)", () => {
  const e2e = useE2eStack();

  it("B20: an approval becomes one encrypted Web Push message; Skein's service worker shows it, pointing at the request", async () => {
    const { stack, page } = e2e;
    const pushService = await startPostRecorder();
    try {
      await page.context().grantPermissions(["notifications"], { origin: stack.web.url });
      await page.goto(`${stack.web.url}/approvals`);
      await page.getByText("Nothing is waiting for you.").waitFor({ timeout: 60_000 });
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      const keys = await browserKeys(page);
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const endpoint = `${pushService.url}/push/chromium`;
      await client.notify.subscribe.mutate({
        subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        settings: {
          kinds: ["approval"],
          mutedThreadIds: [],
          mutedProjectIds: [],
          quietHours: null,
        },
      });

      const { projectId } = await client.project.create.mutate({
        name: "Push",
        workspaceRoot: stack.providers.workspace,
      });
      const { threadId } = await client.thread.create.mutate({
        projectId,
        title: "Deploy the fix",
        provider: "codex",
        runtimeMode: "approval-required",
      });
      stack.providers.openai.enqueue(execCommandReply("echo PUSHED"), responsesTextReply("ok"));
      await client.thread.sendMessage.mutate({ threadId, text: "deploy" });
      await expect.poll(() => pushService.received.length, { timeout: 90_000 }).toBe(1);
      const { requests } = await client.request.pending.query({ threadId });
      const requestId = requests[0]!.id;

      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(Buffer.from(keys.d, "base64url"));
      const plain = ece.decrypt(pushService.received[0]!.body, {
        version: "aes128gcm",
        privateKey: ecdh,
        authSecret: keys.auth,
      });
      const message = JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
      expect(message).toMatchObject({
        title: "Deploy the fix",
        body: "The agent needs your approval.",
        url: `/approvals?request=${encodeURIComponent(requestId)}`,
      });
      expect(plain.toString("utf8")).not.toContain("PUSHED");

      // The decrypted message, as the push service would hand it to the browser.
      const cdp = await page.context().newCDPSession(page);
      const registration = new Promise<string>((resolve) => {
        cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
          const ours = registrations.find((r) => r.scopeURL === `${stack.web.url}/`);
          if (ours) resolve(ours.registrationId);
        });
      });
      await cdp.send("ServiceWorker.enable");
      await cdp.send("ServiceWorker.deliverPushMessage", {
        origin: stack.web.url,
        registrationId: await registration,
        data: plain.toString("utf8"),
      });
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const reg = await navigator.serviceWorker.ready;
              return (await reg.getNotifications()).map((n) => ({
                title: n.title,
                body: n.body,
                url: (n.data as { url?: string } | null)?.url ?? null,
              }));
            }),
          { timeout: 30_000 },
        )
        .toEqual([
          {
            title: "Deploy the fix",
            body: "The agent needs your approval.",
            url: `/approvals?request=${encodeURIComponent(requestId)}`,
          },
        ]);
    } finally {
      await pushService.close();
    }
  });
});
