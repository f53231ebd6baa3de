import { eventsRouter } from "./router/events.ts";
import { handoffRouter } from "./router/handoff.ts";
import { healthRouter } from "./router/health.ts";
import { projectRouter } from "./router/project.ts";
import { providerRouter } from "./router/provider.ts";
import { requestRouter } from "./router/request.ts";
import { threadRouter } from "./router/thread.ts";
import { transferRouter } from "./router/transfer.ts";
import { createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  ...healthRouter,
  project: projectRouter,
  thread: threadRouter,
  request: requestRouter,
  transfer: transferRouter,
  handoff: handoffRouter,
  provider: providerRouter,
  events: eventsRouter,
});

export type AppRouter = typeof appRouter;
