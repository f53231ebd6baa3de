import { NodeId, RunId, ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { readRawFrames } from "../read-models/raw-frames.ts";
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
  /**
   * B8/E18: the raw provider frames a run (or one of its nodes) came from, in log order, each with
   * when it was observed and the store sequences it led to. Diagnostics: frames rotated out of
   * the bounded log are gone.
   */
  raw: apiProcedure
    .input(z.object({ threadId: ThreadId, runId: RunId, nodeId: NodeId.optional() }))
    .query(({ ctx, input }) => readRawFrames(ctx.store, ctx.rawLog, input)),
} satisfies TRPCRouterRecord;
