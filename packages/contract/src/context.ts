import { NameText, ValidationError, zodIssues } from "@skein/domain";
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
  /**
   * B19: the outside agent making this call (an MCP or ACP client, by its own name), recorded on
   * the threads it starts; null or absent for a person's call.
   */
  agentName?: string | null;
};

/** A call another instance forwarded here carries its origin to the command side. */
export function originOf(ctx: SkeinContext): CallOrigin | undefined {
  return ctx.forwardedBy === null ? undefined : { forwardedBy: ctx.forwardedBy };
}

/**
 * Who starts a thread this call creates: nothing for a person, `{ agentName }` for an outside
 * agent. The name is checked like any name (B4), since a client chose it.
 */
export function startedBy(ctx: SkeinContext): { agentName?: string } {
  if (ctx.agentName === null || ctx.agentName === undefined) return {};
  const parsed = NameText.safeParse(ctx.agentName);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error).map((i) => ({ ...i, path: "agentName" }));
    throw new ValidationError(`agent name: ${issues[0]?.message ?? "invalid"}`, issues);
  }
  return { agentName: parsed.data };
}
