import type { CallOrigin } from "./ports/commands.ts";
import type { SkeinServices } from "./ports/services.ts";

/** Who is calling, as the host's authentication found it. */
export type CallerAuth = {
  /** A token is configured: every call must present it. */
  required: boolean;
  authenticated: boolean;
};

/** What every procedure gets: the host's services and who is calling. */
export type SkeinContext = {
  services: SkeinServices;
  auth: CallerAuth;
  /** The instance that forwarded this call here (runtime commands), or null for a client's call. */
  forwardedBy: string | null;
};

/** A call another instance forwarded here carries its origin to the command side. */
export function originOf(ctx: SkeinContext): CallOrigin | undefined {
  return ctx.forwardedBy === null ? undefined : { forwardedBy: ctx.forwardedBy };
}
