import { eventsRouter } from "./router/events.ts";
import { gitRouter, prRouter } from "./router/git.ts";
import { handoffRouter } from "./router/handoff.ts";
import { healthRouter } from "./router/health.ts";
import { notifyRouter } from "./router/notify.ts";
import { projectRouter } from "./router/project.ts";
import { providerRouter } from "./router/provider.ts";
import { requestRouter } from "./router/request.ts";
import { reviewRouter } from "./router/review.ts";
import { runtimeRouter } from "./router/runtime.ts";
import { threadRouter } from "./router/thread.ts";
import { transferRouter } from "./router/transfer.ts";
import { usageRouter } from "./router/usage.ts";
import { workspaceRouter } from "./router/workspace.ts";
import { createTRPCRouter } from "./trpc.ts";

/** Every Skein procedure, written against the ports in `ports/` (the host provides them). */
export const appRouter = createTRPCRouter({
  ...healthRouter,
  project: projectRouter,
  thread: threadRouter,
  request: requestRouter,
  transfer: transferRouter,
  handoff: handoffRouter,
  review: reviewRouter,
  git: gitRouter,
  pr: prRouter,
  provider: providerRouter,
  events: eventsRouter,
  runtime: runtimeRouter,
  notify: notifyRouter,
  usage: usageRouter,
  workspace: workspaceRouter,
});

export type AppRouter = typeof appRouter;
