"use client";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { keyBytes, subscriptionInput } from "../../lib/push-subscribe.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

const KINDS = [
  ["approval", "Needs your approval"],
  ["question", "A question for you"],
  ["finished", "Finished"],
  ["failed", "Failed"],
] as const;
type Kind = (typeof KINDS)[number][0];

/**
 * B20: Web Push on this device: which news to get and the quiet hours (in this device's time
 * zone). The subscription is the browser's; the server keeps it with these settings.
 */
export function NotificationSettings() {
  const client = useApi();
  const action = useAction();
  const [subscription, setSubscription] = useState<PushSubscription | null>(null);
  const [kinds, setKinds] = useState<Kind[]>(KINDS.map(([kind]) => kind));
  const [quiet, setQuiet] = useState<{ from: string; to: string } | null>(null);
  const supported =
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window;

  useEffect(() => {
    if (!supported) return;
    void navigator.serviceWorker.ready.then(async (registration) => {
      const existing = await registration.pushManager.getSubscription();
      if (!existing) return;
      setSubscription(existing);
      const saved = await client.notify.settings
        .query({ endpoint: existing.endpoint })
        .catch(() => null);
      if (saved) {
        setKinds(saved.kinds);
        setQuiet(
          saved.quietHours ? { from: saved.quietHours.from, to: saved.quietHours.to } : null,
        );
      }
    });
  }, [client, supported]);

  if (!supported) {
    return <p className="muted">This browser cannot receive notifications from Skein.</p>;
  }
  const settings = () => ({
    kinds,
    mutedThreadIds: [],
    mutedProjectIds: [],
    quietHours: quiet
      ? { ...quiet, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }
      : null,
  });
  const save = () =>
    void action.run(async () => {
      let current = subscription;
      if (!current) {
        if ((await Notification.requestPermission()) !== "granted") {
          throw new Error("Notifications are blocked for this site; allow them in the browser.");
        }
        const registration = await navigator.serviceWorker.ready;
        const { publicKey } = await client.notify.publicKey.query();
        current = await registration.pushManager
          .subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })
          .catch((error: unknown) => {
            throw new Error(
              `This browser's push service refused the subscription (${String(error)}).`,
            );
          });
      }
      const input = subscriptionInput(current);
      if (!input) throw new Error("The browser gave a subscription without encryption keys.");
      await client.notify.subscribe.mutate({ subscription: input, settings: settings() });
      setSubscription(current);
    });
  const turnOff = () =>
    void action.run(async () => {
      if (!subscription) return;
      await client.notify.unsubscribe.mutate({ endpoint: subscription.endpoint });
      await subscription.unsubscribe();
      setSubscription(null);
    });

  return (
    <details className="notification-settings">
      <summary>Notifications on this device: {subscription ? "on" : "off"}</summary>
      <fieldset>
        <legend>Tell me when the agent…</legend>
        {KINDS.map(([kind, label]) => (
          <label key={kind}>
            <input
              type="checkbox"
              checked={kinds.includes(kind)}
              onChange={(event) =>
                setKinds((list) =>
                  event.target.checked ? [...list, kind] : list.filter((k) => k !== kind),
                )
              }
            />{" "}
            {label}
          </label>
        ))}
      </fieldset>
      <label>
        <input
          type="checkbox"
          checked={quiet !== null}
          onChange={(event) =>
            setQuiet(event.target.checked ? { from: "22:00", to: "07:00" } : null)
          }
        />{" "}
        Quiet hours
      </label>
      {quiet && (
        <span>
          {" "}
          from{" "}
          <input
            type="time"
            aria-label="Quiet from"
            value={quiet.from}
            onChange={(event) => setQuiet({ ...quiet, from: event.target.value })}
          />{" "}
          to{" "}
          <input
            type="time"
            aria-label="Quiet until"
            value={quiet.to}
            onChange={(event) => setQuiet({ ...quiet, to: event.target.value })}
          />
        </span>
      )}
      <p>
        <button type="button" className="primary" disabled={action.pending} onClick={save}>
          {subscription ? "Save" : "Turn on"}
        </button>{" "}
        {subscription && (
          <button type="button" disabled={action.pending} onClick={turnOff}>
            Turn off
          </button>
        )}
      </p>
      <ActionError error={action.failure} prefix="Notifications were not changed." />
    </details>
  );
}
