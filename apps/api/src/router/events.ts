import { ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { watchEvents } from "../subscriptions/watches.ts";
import { apiProcedure } from "../trpc.ts";
import { LastEventId } from "./inputs.ts";

export const eventsRouter = {
  /**
   * The event log (or one thread's stream): a position marker tracked with the head sequence,
   * then every later event. `lastEventId: "0"` replays the whole log.
   */
  watch: apiProcedure
    .input(z.object({ threadId: ThreadId.optional(), lastEventId: LastEventId }).optional())
    .subscription(({ ctx, input, signal }) => watchEvents(ctx, input ?? {}, signal)),
} satisfies TRPCRouterRecord;
