import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { SkeinContext } from "../context.ts";
import { apiProcedure } from "../trpc.ts";
import {
  DEFAULT_PUSH_SETTINGS,
  PushSettings,
  PushSubscriptionInput,
  type SkeinNotifications,
} from "../views/notify.ts";

function notificationsOf(ctx: SkeinContext): SkeinNotifications {
  const notifications = ctx.services.notifications;
  if (!notifications) {
    throw new TRPCError({
      code: "PRECONDITION_FAILED",
      message: "Notifications are not set up on this server (it runs without a data dir).",
    });
  }
  return notifications;
}

const Endpoint = z.object({ endpoint: PushSubscriptionInput.shape.endpoint });

/** B20: Web Push subscriptions and each device's settings (kinds, muted threads, quiet hours). */
export const notifyRouter = {
  publicKey: apiProcedure.query(({ ctx }) => ({ publicKey: notificationsOf(ctx).publicKey() })),

  /** Adds the device (or replaces its keys and settings); settings default to every kind. */
  subscribe: apiProcedure
    .input(z.object({ subscription: PushSubscriptionInput, settings: PushSettings.optional() }))
    .mutation(({ ctx, input }) =>
      notificationsOf(ctx).subscribe(input.subscription, input.settings ?? DEFAULT_PUSH_SETTINGS),
    ),

  settings: apiProcedure
    .input(Endpoint)
    .query(({ ctx, input }) => notificationsOf(ctx).settings(input.endpoint)),

  unsubscribe: apiProcedure.input(Endpoint).mutation(async ({ ctx, input }) => {
    await notificationsOf(ctx).unsubscribe(input.endpoint);
    return { ok: true as const };
  }),
} satisfies TRPCRouterRecord;
