import { initTRPC, TRPCError } from "@trpc/server";
import type { SkeinContext } from "./context.ts";
import { apiErrorOf, toTRPCError } from "./errors.ts";
import { SSE_PING_MS, SSE_RECONNECT_AFTER_INACTIVITY_MS } from "./limits.ts";

/**
 * tRPC for the Skein API: one instance, SSE for subscriptions, and an error shape that carries
 * path-qualified validation issues and the domain error code next to tRPC's own code.
 */
const t = initTRPC.context<SkeinContext>().create({
  // Stack traces stay out of responses regardless of NODE_ENV; logs have them.
  isDev: false,
  sse: {
    ping: { enabled: true, intervalMs: SSE_PING_MS },
    client: { reconnectAfterInactivityMs: SSE_RECONNECT_AFTER_INACTIVITY_MS },
  },
  errorFormatter({ shape, error }) {
    const { message, domainCode, issues } = apiErrorOf(error);
    return { ...shape, message, data: { ...shape.data, domainCode, issues } };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Domain failures (and the host's own, through its `mapError`) become their tRPC codes here, for
 * queries and mutations alike.
 */
const mapErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const cause = result.error.cause;
    const mapped = toTRPCError(cause) ?? ctx.services.mapError(cause);
    if (mapped !== null) throw mapped;
  }
  return result;
});

const requireToken = t.middleware(({ ctx, next }) => {
  if (ctx.auth.required && !ctx.auth.authenticated) {
    throw new TRPCError({
      code: "UNAUTHORIZED",
      message:
        "missing or wrong API token: send `Authorization: Bearer <SKEIN_API_TOKEN>` " +
        '(only subscriptions may pass it as connectionParams {"token": …} instead)',
    });
  }
  return next();
});

/** The base of every Skein procedure: authenticated when a token is configured. */
export const apiProcedure = t.procedure.use(mapErrors).use(requireToken);
