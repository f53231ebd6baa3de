import {
  CheckpointId,
  ForkSourcePointSpec,
  NotFoundError,
  ProjectId,
  ProviderKind,
  RuntimeMode,
  ThreadId,
} from "@skein/domain";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { watchDetail, watchShells } from "../subscriptions/watches.ts";
import { apiProcedure } from "../trpc.ts";
import { LastEventId, MessageText, ModelName, OptionalCommandId, Title } from "./inputs.ts";

const ThreadRef = z.object({ threadId: ThreadId, commandId: OptionalCommandId });

export const threadRouter = {
  create: apiProcedure
    .input(
      z.object({
        projectId: ProjectId,
        title: Title.optional(),
        provider: ProviderKind.optional(),
        model: ModelName.optional(),
        runtimeMode: RuntimeMode.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // CreateThread is decided on the new thread's stream alone; nothing downstream looks the
      // project up, so an unknown one is caught here.
      if (!(await ctx.readModels.projectExists(input.projectId))) {
        throw new NotFoundError("project", input.projectId);
      }
      return ctx.orchestrator.createThread(input);
    }),

  /** Returns once the run is recorded; the run itself proceeds in the background. */
  sendMessage: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        text: MessageText,
        provider: ProviderKind.optional(),
        model: ModelName.optional(),
        /** A fork of this thread whose work this message brings back (T8). */
        bringBackFrom: ThreadId.optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.sendMessage(input)),

  fork: apiProcedure
    .input(
      z.object({
        threadId: ThreadId,
        sourcePoint: ForkSourcePointSpec.optional(),
        title: Title.optional(),
        isolatedWorkspace: z.boolean().optional(),
        commandId: OptionalCommandId,
      }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.forkThread(input)),

  /** Steer and interrupt run where the thread's runtime is (forwarded to its instance). */
  steer: apiProcedure
    .input(z.object({ threadId: ThreadId, text: MessageText, commandId: OptionalCommandId }))
    .mutation(({ ctx, input }) =>
      ctx.orchestrator.steer({ ...input, forwarded: ctx.forwardedBy !== null }),
    ),

  interrupt: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) =>
      ctx.orchestrator.interrupt({ ...input, forwarded: ctx.forwardedBy !== null }),
    ),

  rollback: apiProcedure
    .input(
      z.object({ threadId: ThreadId, checkpointId: CheckpointId, commandId: OptionalCommandId }),
    )
    .mutation(({ ctx, input }) => ctx.orchestrator.rollback(input)),

  archive: apiProcedure
    .input(ThreadRef)
    .mutation(({ ctx, input }) => ctx.orchestrator.archive(input)),

  shells: apiProcedure.query(({ ctx }) => ctx.readModels.shells()),

  detail: apiProcedure
    .input(z.object({ threadId: ThreadId }))
    .query(({ ctx, input }) => ctx.readModels.detail(input.threadId)),

  graph: apiProcedure
    .input(z.object({ threadId: ThreadId }))
    .query(({ ctx, input }) => ctx.readModels.graph(input.threadId)),

  /** P1 snapshot, then every event of every thread stream after it (S2). */
  watchShells: apiProcedure
    .input(z.object({ lastEventId: LastEventId }).optional())
    .subscription(({ ctx, input, signal }) => watchShells(ctx, input ?? {}, signal)),

  /** P2 snapshot of one thread, then every later event of its stream (S2). */
  watchDetail: apiProcedure
    .input(z.object({ threadId: ThreadId, lastEventId: LastEventId }))
    .subscription(({ ctx, input, signal }) => watchDetail(ctx, input, signal)),
} satisfies TRPCRouterRecord;
