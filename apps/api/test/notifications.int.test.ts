import { createECDH, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from "@skein/contract";
import type { ThreadId } from "@skein/domain";
import ece from "http_ece";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSilentLogger } from "../src/logger.ts";
import { Notifier, type NotifierOptions } from "../src/notify/notifier.ts";
import { webhookSignature } from "../src/notify/webhook.ts";
import { startPostRecorder } from "@skein/fake-models";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { until } from "./support/until.ts";

type Receiver = Awaited<ReturnType<typeof startPostRecorder>>;

/** A device's push keys (RFC 8291), as a browser makes them; the test keeps the private half. */
function deviceKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16).toString("base64url");
  return { ecdh, p256dh: ecdh.getPublicKey().toString("base64url"), auth };
}

type Device = ReturnType<typeof deviceKeys> & { endpoint: string };

function decrypt(device: Device, body: Buffer): Record<string, unknown> {
  const plain = ece.decrypt(body, {
    version: "aes128gcm",
    privateKey: device.ecdh,
    authSecret: device.auth,
  });
  return JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
}

let t: ScriptedTestServer;
let push: Receiver;
let hook: Receiver;
const notifiers: Notifier[] = [];

beforeEach(async () => {
  t = await startScriptedServer();
  push = await startPostRecorder();
  hook = await startPostRecorder();
});
afterEach(async () => {
  for (const notifier of notifiers.splice(0)) await notifier.close();
  await t.close();
  await push.close();
  await hook.close();
});

const SECRET = "a-webhook-secret-of-some-length";

async function startNotifier(extra: Partial<NotifierOptions> = {}): Promise<Notifier> {
  const notifier = new Notifier({
    store: t.store,
    dataDir: t.dataDir,
    log: createSilentLogger(),
    webhook: { url: `${hook.url}/hook`, secret: SECRET },
    retryDelaysMs: [20, 40],
    ...extra,
  });
  await notifier.start();
  notifiers.push(notifier);
  return notifier;
}

async function device(
  notifier: Notifier,
  name: string,
  settings: PushSettings = DEFAULT_PUSH_SETTINGS,
): Promise<Device> {
  const keys = deviceKeys();
  const endpoint = `${push.url}/push/${name}`;
  await notifier.subscribe({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }, settings);
  return { ...keys, endpoint };
}

async function thread(title: string): Promise<ThreadId> {
  const { projectId } = await t.client.project.create.mutate({
    name: "Notify",
    workspaceRoot: t.workspaceDir,
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, title });
  return threadId as ThreadId;
}

const to = (name: string) => push.received.filter((r) => r.path === `/push/${name}`);

describe("B20: notifications through Web Push and a webhook", () => {
  it("B20: a question and a finished run reach the device encrypted to its keys, VAPID-signed, once each across a restart; the webhook gets them signed", async () => {
    const first = await startNotifier();
    const phone = await device(first, "phone");
    const threadId = await thread("Fix the login bug");
    t.codex.enqueue([
      { type: "question", questions: [{ id: "q", question: "Which branch?", options: [] }] },
      { type: "text", text: "SECRET-FILE-CONTENT done" },
    ]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "please fix it" });
    const pending = await until(
      () => t.client.request.pending.query({ threadId }),
      (list) => list.requests.length === 1,
    );
    const requestId = pending.requests[0]!.id;
    await until(
      async () => to("phone").length,
      (n) => n === 1,
    );
    const [question] = to("phone");
    expect(question!.headers["content-encoding"]).toBe("aes128gcm");
    expect(question!.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${first.publicKey()}$`),
    );
    expect(decrypt(phone, question!.body)).toEqual({
      title: "Fix the login bug",
      body: "The agent has a question for you.",
      kind: "question",
      url: `/approvals?request=${encodeURIComponent(requestId)}`,
      threadId,
      requestId,
      tag: expect.stringMatching(/^event-\d+$/),
    });

    await t.client.request.respond.mutate({
      requestId,
      decision: "accept",
      answers: { q: "main" },
    });
    await until(
      async () => to("phone").length,
      (n) => n === 2,
    );
    const finished = decrypt(phone, to("phone")[1]!.body);
    expect(finished).toMatchObject({
      kind: "finished",
      body: "The agent finished.",
      url: `/threads/${threadId}`,
    });
    // Nothing of the work itself travels: not the answer, not the question.
    for (const sent of to("phone")) {
      const text = JSON.stringify(decrypt(phone, sent.body));
      expect(text).not.toMatch(/SECRET-FILE-CONTENT|Which branch/);
    }

    // The webhook got both, each signed over its exact body.
    await until(
      async () => hook.received.length,
      (n) => n === 2,
    );
    for (const sent of hook.received) {
      expect(sent.headers["x-skein-signature"]).toBe(
        webhookSignature(SECRET, sent.body.toString()),
      );
    }

    // A restart: the new notifier reads the same recent events again, and the delivery records
    // keep every one of them from going out twice; the VAPID keys stay those of the data dir.
    await first.close();
    const again = await startNotifier();
    expect(again.publicKey()).toBe(first.publicKey());
    const keyFile = fs.statSync(path.join(t.dataDir, "push", "vapid.json"));
    expect(keyFile.mode & 0o077).toBe(0);
    t.codex.enqueue([{ type: "text", text: "second answer" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "and now?" });
    await until(
      async () => to("phone").length,
      (n) => n >= 3,
    );
    await until(
      async () => hook.received.length,
      (n) => n >= 3,
    );
    const kinds = to("phone").map((r) => decrypt(phone, r.body).kind);
    expect(kinds).toEqual(["question", "finished", "finished"]);
    expect(hook.received).toHaveLength(3);
    const tags = to("phone").map((r) => decrypt(phone, r.body).tag);
    expect(new Set(tags).size).toBe(3);

    // Records of deliveries past twice the look-back are dropped at a start; devices stay.
    const deliveries = async () =>
      (await t.store.listIntents()).filter((i) => i.procedure === "notify.delivery").length;
    expect(await deliveries()).toBe(6);
    await again.close();
    const hourLater = await startNotifier({ now: () => new Date(Date.now() + 3_600_000) });
    expect(await deliveries()).toBe(0);
    expect((await hourLater.records.subscribers()).map((s) => s.id)).toHaveLength(1);
  });

  it("B20: quiet hours, muted threads and unchosen kinds hold a notice back; the webhook's retries are bounded", async () => {
    // 23:30 in Berlin: inside 22:00–07:00 there, outside 09:00–17:00 in UTC.
    const now = () => new Date("2026-12-06T22:30:00.000Z");
    hook.statuses.push(503, 503, 503);
    const notifier = await startNotifier({ now, catchUpMs: Number.POSITIVE_INFINITY });
    const night = await device(notifier, "night", {
      ...DEFAULT_PUSH_SETTINGS,
      quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Berlin" },
    });
    await device(notifier, "office", {
      ...DEFAULT_PUSH_SETTINGS,
      quietHours: { from: "09:00", to: "17:00", timeZone: "UTC" },
    });
    await device(notifier, "failures-only", { ...DEFAULT_PUSH_SETTINGS, kinds: ["failed"] });
    const threadId = await thread("Quiet one");
    await device(notifier, "muted", { ...DEFAULT_PUSH_SETTINGS, mutedThreadIds: [threadId] });
    t.codex.enqueue([{ type: "text", text: "done" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "go" });
    await until(
      async () => to("office").length,
      (n) => n === 1,
    );
    // Every try of the webhook is made before the office device hears of the next notice.
    await until(
      async () => hook.received.length,
      (n) => n === 3,
    );
    expect(to("night")).toHaveLength(0);
    expect(to("failures-only")).toHaveLength(0);
    expect(to("muted")).toHaveLength(0);
    expect(night.endpoint).toContain("/push/night");
    // 503 each time: one try and two retries (retryDelaysMs has two), all the same delivery.
    expect(new Set(hook.received.map((r) => r.headers["x-skein-delivery"])).size).toBe(1);
    // A later notice still goes out: the failed delivery did not stop the notifier.
    t.codex.enqueue([{ type: "text", text: "done again" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "again" });
    await until(
      async () => to("office").length,
      (n) => n === 2,
    );
    await until(
      async () => hook.received.length,
      (n) => n === 4,
    );
    expect(hook.received.at(-1)!.headers["x-skein-delivery"]).not.toBe(
      hook.received[0]!.headers["x-skein-delivery"],
    );
  });
});
