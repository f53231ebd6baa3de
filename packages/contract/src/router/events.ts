import { NodeId, RunId, ThreadId } from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { apiProcedure } from "../trpc.ts";
import { LastEventId, LastRawFrameId } from "./inputs.ts";

export const eventsRouter = {
  /**
   * The event log (or one thread's stream): a position marker tracked with the head sequence,
   * then every later event. `lastEventId: "0"` replays the whole log.
   */
  watch: apiProcedure
    .input(z.object({ threadId: ThreadId.optional(), lastEventId: LastEventId }).optional())
    .subscription(({ ctx, input, signal }) => ctx.services.watches.events(input ?? {}, signal)),
  /**
   * B8/E18: the raw provider frames a run (or one of its nodes) came from, in log order, each with
   * when it was observed and the store sequences it led to. Diagnostics: frames rotated out of
   * the bounded log are gone.
   */
  raw: apiProcedure
    .input(z.object({ threadId: ThreadId, runId: RunId, nodeId: NodeId.optional() }))
    .query(({ ctx, input }) => ctx.services.reads.rawFrames(input)),
  /**
   * B8/E18: the same frames as a stream: those recorded so far, then each new one as the run
   * produces it, tracked with its frame id (a reconnect resumes after it); ends once the run has
   * ended and its last frame was sent.
   */
  watchRaw: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        runId: RunId,
        nodeId: NodeId.optional(),
        lastEventId: LastRawFrameId,
      }),
    )
    .subscription(({ ctx, input, signal }) => ctx.services.watches.raw(input, signal)),
} satisfies TRPCRouterRecord;
