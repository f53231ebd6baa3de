import { createHash } from "node:crypto";
import type { EventStore } from "@skein/db";
import type { PushSettings, PushSubscriptionInput } from "@skein/contract";

/** Store records of notifications are kept as intents under these procedures (never resumed). */
export const NOTIFY_RECORD_PREFIX = "notify.";
const SUBSCRIPTION = "notify.subscription";
const DELIVERY = "notify.delivery";

export type Subscriber = {
  id: string;
  subscription: PushSubscriptionInput;
  settings: PushSettings;
};

/** A device is known by its push endpoint; the id never shows the endpoint itself. */
export function subscriberIdOf(endpoint: string): string {
  return createHash("sha256").update(endpoint).digest("hex").slice(0, 32);
}

/**
 * B20: devices and their settings, and the record of every delivery, in the store every instance
 * shares (its intent rows: written atomically, listed, never resumed as commands). A delivery is
 * claimed here before it is sent, so one event reaches one device once, across restarts and
 * instances.
 */
export class NotifyRecords {
  constructor(private readonly store: EventStore) {}

  async subscribers(): Promise<Subscriber[]> {
    const intents = await this.store.listIntents();
    return intents.filter((i) => i.procedure === SUBSCRIPTION).map((i) => i.data as Subscriber);
  }

  /** Adds the device, or replaces its keys and settings (the same endpoint is the same device). */
  async save(subscription: PushSubscriptionInput, settings: PushSettings): Promise<Subscriber> {
    const subscriber: Subscriber = {
      id: subscriberIdOf(subscription.endpoint),
      subscription,
      settings,
    };
    const commandId = `notify-subscription:${subscriber.id}`;
    await this.store.clearIntent(commandId);
    await this.store.recordIntent({
      commandId,
      procedure: SUBSCRIPTION,
      payloadHash: "",
      data: subscriber,
    });
    return subscriber;
  }

  async remove(subscriberId: string): Promise<void> {
    await this.store.clearIntent(`notify-subscription:${subscriberId}`);
  }

  /** True for the one caller that may send `noticeKey` to `target`; false for every other. */
  claimDelivery(noticeKey: string, target: string): Promise<boolean> {
    return this.store.recordIntent({
      commandId: `notify-delivery:${noticeKey}:${target}`,
      procedure: DELIVERY,
      payloadHash: "",
      data: { noticeKey, target },
    });
  }
}
