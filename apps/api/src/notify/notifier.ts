import type { PushSettings, PushSubscriptionInput, SkeinNotifications } from "@skein/contract";
import type { EventStore, EventSubscription } from "@skein/db";
import { NotFoundError, type StoredEvent } from "@skein/domain";
import type { Logger } from "../logger.ts";
import { MinuteBudget } from "./minute-budget.ts";
import { type Notice, noticeOf, noticeText } from "./notice-of.ts";
import { sendPush, SubscriptionGone } from "./push-sender.ts";
import { NotifyRecords, type Subscriber, subscriberIdOf } from "./push-subscriptions.ts";
import { isQuiet } from "./quiet-hours.ts";
import { withBoundedRetries } from "./retry.ts";
import { loadVapidKeys, type VapidKeys } from "./vapid-keys.ts";
import { postWebhook, type WebhookTarget } from "./webhook.ts";

export type NotifierOptions = {
  store: EventStore;
  dataDir: string;
  log: Logger;
  webhook?: WebhookTarget | null;
  /** Sends per device (and to the webhook) in any minute; default 12. */
  perMinute?: number;
  /** Pauses between tries of one send; their count bounds the tries. */
  retryDelaysMs?: readonly number[];
  /** How far back a (re)start looks for events it may not have told anyone about yet. */
  catchUpMs?: number;
  now?: () => Date;
};

const CATCH_UP_EVENTS = 2_000;
const DEFAULT_RETRY_DELAYS_MS = [250, 1_000, 4_000];

type ThreadInfo = { title: string; projectId: string | null };

/**
 * B20: tells people what needs them. Follows the log on every instance; each notice is claimed in
 * the shared store per device before it is sent (NotifyRecords), so it goes out once whichever
 * instance sees it first and whatever restarts happen. A (re)start looks back `catchUpMs` for
 * events a stopped instance may have left untold; the claims keep those already sent from going
 * out again. Devices choose kinds, mute threads or projects and set quiet hours; every target
 * is bounded per minute and every send's retries are bounded.
 */
export class Notifier implements SkeinNotifications {
  readonly records: NotifyRecords;
  private readonly vapid: VapidKeys;
  private readonly budget: MinuteBudget;
  private subscription: EventSubscription | null = null;
  private loop: Promise<void> | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: NotifierOptions) {
    this.records = new NotifyRecords(options.store);
    this.vapid = loadVapidKeys(options.dataDir);
    this.budget = new MinuteBudget(options.perMinute ?? 12);
    this.now = options.now ?? (() => new Date());
  }

  /** Starts following the log; resolves once the subscription is attached. */
  async start(): Promise<void> {
    const head = await this.options.store.headSequence();
    const subscription = this.options.store.subscribe({
      afterSequence: Math.max(0, head - CATCH_UP_EVENTS),
      filter: { streamPrefix: "thread-" },
    });
    this.subscription = subscription;
    this.loop = (async () => {
      try {
        for await (const event of subscription) await this.handle(event);
      } catch (error) {
        this.options.log.warn({ err: error }, "notifications stopped following the log");
      }
    })();
  }

  async close(): Promise<void> {
    this.subscription?.close();
    await this.loop;
  }

  publicKey(): string {
    return this.vapid.publicKey;
  }

  async subscribe(
    subscription: PushSubscriptionInput,
    settings: PushSettings,
  ): Promise<{ subscriberId: string }> {
    const saved = await this.records.save(subscription, settings);
    return { subscriberId: saved.id };
  }

  async settings(endpoint: string): Promise<PushSettings> {
    const id = subscriberIdOf(endpoint);
    const found = (await this.records.subscribers()).find((s) => s.id === id);
    if (!found) throw new NotFoundError("push subscription", id);
    return found.settings;
  }

  async unsubscribe(endpoint: string): Promise<void> {
    await this.records.remove(subscriberIdOf(endpoint));
  }

  private async handle(event: StoredEvent): Promise<void> {
    const notice = noticeOf(event);
    if (!notice) return;
    const now = this.now();
    const age = now.getTime() - Date.parse(event.recordedAt);
    if (age > (this.options.catchUpMs ?? 10 * 60_000)) return;
    const thread = await this.threadInfo(notice.threadId);
    const text = noticeText(notice.kind, thread.title);
    const payload = JSON.stringify({
      ...text,
      kind: notice.kind,
      url: notice.path,
      threadId: notice.threadId,
      requestId: notice.requestId,
      tag: notice.key,
    });
    for (const subscriber of await this.records.subscribers()) {
      if (!wants(subscriber.settings, notice, thread, now)) continue;
      await this.deliver(notice, `push:${subscriber.id}`, () => this.push(subscriber, payload));
    }
    const webhook = this.options.webhook;
    if (webhook) {
      await this.deliver(notice, "webhook", () => postWebhook(webhook, notice.key, payload));
    }
  }

  /** Claims the (notice, target) delivery, then sends it with bounded retries; never throws. */
  private async deliver(notice: Notice, target: string, send: () => Promise<void>) {
    const { log } = this.options;
    try {
      if (!this.budget.take(target, this.now().getTime())) {
        log.warn(
          { notice: notice.key, target },
          "notification skipped: the minute's bound is used up",
        );
        return;
      }
      if (!(await this.records.claimDelivery(notice.key, target))) return;
      const tries = await withBoundedRetries(
        this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        send,
      );
      log.info({ notice: notice.key, kind: notice.kind, target, tries }, "notification sent");
    } catch (error) {
      log.warn({ notice: notice.key, target, err: error }, "notification not delivered");
    }
  }

  private async push(subscriber: Subscriber, payload: string): Promise<void> {
    try {
      await sendPush(this.vapid, subscriber.subscription, payload);
    } catch (error) {
      if (error instanceof SubscriptionGone) await this.records.remove(subscriber.id);
      throw error;
    }
  }

  private async threadInfo(threadId: string): Promise<ThreadInfo> {
    const { data } = await this.options.store.snapshot((q) => q.get("threads", threadId));
    const shell = data?.data as { title?: string; projectId?: string } | undefined;
    return { title: shell?.title ?? "A thread", projectId: shell?.projectId ?? null };
  }
}

/** What this device asked to be told, and whether now is a time it may be. */
function wants(settings: PushSettings, notice: Notice, thread: ThreadInfo, now: Date): boolean {
  if (!settings.kinds.includes(notice.kind)) return false;
  if (settings.mutedThreadIds.includes(notice.threadId)) return false;
  if (thread.projectId && settings.mutedProjectIds.includes(thread.projectId)) return false;
  return !isQuiet(settings.quietHours, now);
}
