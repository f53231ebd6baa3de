import type { LeaseKeeper } from "@skein/db";
import { ConflictError, type ThreadId } from "@skein/domain";
import { TRPCClientError } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { createSkeinClient, type SkeinClient } from "../client.ts";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { Logger } from "./logger.ts";

/**
 * Marks a call one instance forwards to another (its value: the forwarding instance's id). The
 * receiver executes it only if it holds the runtime itself, never forwards it again, so two
 * instances with different views of a lease cannot bounce a command between them.
 */
export const FORWARDED_HEADER = "x-skein-forwarded-by";

/** A forwarded call that takes longer than this is reported as the owner being unreachable. */
const FORWARD_TIMEOUT_MS = 15_000;

type Remote<T> = (client: SkeinClient, signal: AbortSignal) => Promise<T>;

/**
 * Steer, interrupt and respond need the live provider runtime, which only the instance holding
 * the thread's lease has. This runs them here when that is us (or nobody holds the thread), and
 * otherwise forwards them over HTTP to the holder's advertised address, returning its result or
 * its error code unchanged.
 */
export class RuntimeForwarder {
  private readonly clients = new Map<string, SkeinClient>();

  constructor(
    private readonly leases: LeaseKeeper,
    private readonly repo: AggregateRepository,
    /** The API token every instance shares; forwarded calls present it. */
    private readonly apiToken: string | null,
    private readonly log: Logger,
  ) {}

  async run<T>(
    threadId: ThreadId,
    forwarded: boolean,
    local: () => Promise<T>,
    remote: Remote<T>,
  ): Promise<T> {
    if (this.leases.holds(threadId)) return local();
    const holder = await this.leases.foreignHolder(threadId);
    if (forwarded) {
      // The sender saw us as the owner; we are not (any more). Bouncing it on would risk a loop.
      throw new ConflictError(
        `thread ${threadId}: a command was forwarded to Skein instance ${this.leases.owner}, ` +
          `which does not hold its runtime${holder ? ` (instance ${holder.owner} does)` : ""}; retry`,
      );
    }
    if (!holder) {
      // Nobody runs the thread: the command meets the domain here, on fresh state (another
      // instance may have changed the thread since this one cached it).
      await this.repo.refreshThread(threadId);
      return local();
    }
    const presence = await this.leases.presenceOf(holder.owner);
    if (!presence?.address) {
      throw unavailable(
        threadId,
        holder.owner,
        presence ? "it has not advertised an address" : "it has stopped announcing itself",
      );
    }
    const signal = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
    try {
      return await remote(this.client(presence.address), signal);
    } catch (error) {
      throw this.translate(error, threadId, holder.owner, presence.address);
    }
  }

  private client(address: string): SkeinClient {
    let client = this.clients.get(address);
    if (!client) {
      client = createSkeinClient({
        url: address,
        ...(this.apiToken === null ? {} : { token: this.apiToken }),
        headers: { [FORWARDED_HEADER]: this.leases.owner },
      });
      this.clients.set(address, client);
    }
    return client;
  }

  /** The owner's answer, as if this instance had given it; transport failures name the owner. */
  private translate(error: unknown, threadId: ThreadId, owner: string, address: string): Error {
    const data = error instanceof TRPCClientError ? (error.data as OwnerErrorData) : undefined;
    if (error instanceof TRPCClientError && data?.code && data.code !== "UNAUTHORIZED") {
      // The cause carries the owner's domain code and issues, which the error formatter reads.
      const cause = Object.assign(new Error(error.message), {
        ...(data.domainCode ? { code: data.domainCode } : {}),
        ...(data.issues ? { issues: data.issues } : {}),
      });
      return new TRPCError({ code: data.code, message: error.message, cause });
    }
    const why =
      data?.code === "UNAUTHORIZED"
        ? "it refused this instance's API token (instances must share SKEIN_API_TOKEN)"
        : `it could not be reached at ${address} (${describe(error)})`;
    this.log.warn({ threadId, owner, address, err: error }, "runtime command not forwarded");
    return unavailable(threadId, owner, why);
  }
}

type OwnerErrorData = {
  code?: TRPC_ERROR_CODE_KEY;
  domainCode?: string | null;
  issues?: unknown[] | null;
};

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  const text = error instanceof Error ? error.message : String(error);
  return cause && cause.message !== text ? `${text}: ${cause.message}` : text;
}

function unavailable(threadId: ThreadId, owner: string, why: string): TRPCError {
  return new TRPCError({
    code: "SERVICE_UNAVAILABLE",
    message:
      `thread ${threadId} runs on Skein instance ${owner}, but ${why}; nothing was changed. ` +
      "Retry later: if that instance is gone, another takes the thread over once its lease expires.",
  });
}
