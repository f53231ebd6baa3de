import type { LeaseKeeper } from "@skein/db";
import { ConflictError, type ThreadId } from "@skein/domain";
import { TRPCError } from "@trpc/server";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { RemoteUnreachableError, type RuntimeRemote } from "./runtime-remote.ts";
import type { CallOrigin } from "@skein/contract";

/** A forwarded call that takes longer than this is reported as the owner being unreachable. */
const FORWARD_TIMEOUT_MS = 15_000;

type Remote<T> = (remote: RuntimeRemote, address: string, signal: AbortSignal) => Promise<T>;

/**
 * Steer, interrupt and respond need the live provider runtime, which only the instance holding
 * the thread's lease has. This runs them here when that is us (or nobody holds the thread), and
 * otherwise forwards them over HTTP to the holder's advertised address, returning its result or
 * its error code unchanged.
 */
export class RuntimeForwarder {
  constructor(
    private readonly leases: LeaseKeeper,
    private readonly repo: AggregateRepository,
    private readonly remote: RuntimeRemote,
    private readonly log: Logger,
  ) {}

  /** `origin` says another instance already forwarded this call here. */
  async run<T>(
    threadId: ThreadId,
    origin: CallOrigin | undefined,
    local: () => Promise<T>,
    remote: Remote<T>,
  ): Promise<T> {
    if (this.leases.holds(threadId)) return local();
    const holder = await this.leases.foreignHolder(threadId);
    if (origin && holder) {
      // The sender saw us as the owner; another instance is. Bouncing it on would risk a loop.
      throw new ConflictError(
        `thread ${threadId}: a command was forwarded to Skein instance ${this.leases.owner}, ` +
          `which does not hold its runtime (instance ${holder.owner} does); retry`,
      );
    }
    if (!holder) {
      // Nobody runs the thread: the command meets the domain here, on fresh state (another
      // instance may have changed the thread since this one cached it). A forwarded call lands
      // here when we let the lease go after the sender read it (our run just ended): it is
      // answered as a single instance would answer it, never with a retry that cannot succeed.
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
      return await remote(this.remote, presence.address, signal);
    } catch (error) {
      if (!(error instanceof RemoteUnreachableError)) throw error;
      this.log.warn(
        { threadId, owner: holder.owner, address: presence.address, err: error.cause ?? error },
        "runtime command not forwarded",
      );
      throw unavailable(threadId, holder.owner, error.why);
    }
  }

  /**
   * Asks every other live instance to let go of a native thread its runtime holds, so this one
   * can resume it (Codex keeps one writer per thread). Bounded: one call per peer, each with the
   * forwarding timeout; a peer that cannot be reached is skipped. True when a peer released it.
   */
  async askPeersToRelease(nativeThreadRef: string): Promise<boolean> {
    const peers = [...(await this.leases.liveInstances())].filter((id) => id !== this.leases.owner);
    const answers = await Promise.all(
      peers.map(async (peer) => {
        const presence = await this.leases.presenceOf(peer);
        if (!presence?.address) return false;
        try {
          const { outcome } = await this.remote.releaseProviderThread(
            presence.address,
            { nativeThreadRef },
            AbortSignal.timeout(FORWARD_TIMEOUT_MS),
          );
          return outcome === "released";
        } catch (error) {
          this.log.warn(
            { peer, nativeThreadRef, err: error },
            "peer did not release a provider thread",
          );
          return false;
        }
      }),
    );
    return answers.includes(true);
  }
}

function unavailable(threadId: ThreadId, owner: string, why: string): TRPCError {
  return new TRPCError({
    code: "SERVICE_UNAVAILABLE",
    message:
      `thread ${threadId} runs on Skein instance ${owner}, but ${why}; nothing was changed. ` +
      "Retry later: if that instance is gone, another takes the thread over once its lease expires.",
  });
}
