import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
  type ProviderModel,
} from "@skein/domain/provider";
import { AcpProviderSession } from "./acp-provider-session.ts";
import { type AcpAgentSpec, agentProviderId } from "./agent-spec.ts";
import { capabilitiesOf } from "./capabilities.ts";
import { modelsOf } from "./models.ts";

export type AcpAdapterOptions = {
  /**
   * Capabilities known before any agent starts (a pinned agent's, checked by its tests against
   * what it declares). Without them the adapter declares only what every ACP agent can do until
   * `status()` has heard the agent's own `initialize`.
   */
  capabilities?: ProviderCapabilityFlags;
  /** Readiness beyond "it answers initialize" (e.g. Gemini's API key or sign-in). */
  readiness?: () => Promise<string | null>;
};

type AdapterStatus = Awaited<ReturnType<ProviderAdapter["status"]>>;

const STATUS_TTL_MS = 30_000;

const BASELINE: ProviderCapabilityFlags = capabilitiesOf(
  { protocolVersion: 1, agentCapabilities: {} },
  { planMode: false },
);

/** Starts the agent in a throwaway folder, runs `work`, and stops it. */
async function withProbe<T>(
  spec: AcpAgentSpec,
  capabilities: ProviderCapabilityFlags | undefined,
  work: (session: AcpProviderSession, cwd: string) => Promise<T>,
): Promise<T> {
  const cwd = await mkdtemp(join(tmpdir(), "skein-acp-probe-"));
  try {
    const session = await AcpProviderSession.open(
      spec,
      { providerSessionId: "probe", cwd },
      capabilities,
    );
    try {
      return await work(session, cwd);
    } finally {
      await session.close();
    }
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

/**
 * The Skein provider adapter for any agent that speaks the Agent Client Protocol over stdio. Its
 * capabilities are what the agent declares at `initialize` (learned by `status()`, or given for a
 * pinned agent); what ACP cannot do natively falls back to portable handoffs in the orchestrator.
 */
export function createAcpAdapter(
  spec: AcpAgentSpec,
  options: AcpAdapterOptions = {},
): ProviderAdapter {
  let capabilities = options.capabilities ?? BASELINE;
  // A status check starts the agent; checks close together share one (provider.status is polled).
  let recentStatus: { at: number; result: Promise<AdapterStatus> } | null = null;
  // Agents this adapter runs for threads: one that is up answers for the agent's status.
  const live = new Set<AcpProviderSession>();
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider: agentProviderId(spec),
    displayName: spec.name,
    get capabilities() {
      return capabilities;
    },
    async openSession(input) {
      // The thread's own variables (a PORT) on top of the agent's configured ones.
      const agent = input.env ? { ...spec, env: { ...spec.env, ...input.env } } : spec;
      const session = await AcpProviderSession.open(agent, input, options.capabilities);
      if (!options.capabilities) capabilities = session.capabilities;
      live.add(session);
      return session;
    },
    async listModels(): Promise<ProviderModel[]> {
      return withProbe(spec, options.capabilities, async (session, cwd) => {
        const response = await session.newSessionResponse(cwd);
        return modelsOf(response);
      });
    },
    status() {
      for (const session of live) if (!session.isAlive()) live.delete(session);
      // A running agent already answered initialize: starting another one to ask again would
      // cost a whole agent start (seconds of CPU for Gemini CLI) on the message path.
      const running = live.values().next().value;
      if (running) return liveStatus(running);
      if (recentStatus && Date.now() - recentStatus.at < STATUS_TTL_MS) return recentStatus.result;
      const result = checkStatus();
      recentStatus = { at: Date.now(), result };
      return result;
    },
  };

  async function liveStatus(session: AcpProviderSession): Promise<AdapterStatus> {
    const notReady = (await options.readiness?.()) ?? null;
    return {
      found: true,
      version: session.runtimeVersion,
      ready: notReady === null,
      lastError: notReady,
    };
  }

  async function checkStatus(): Promise<AdapterStatus> {
    try {
      const version = await withProbe(spec, options.capabilities, async (session) => {
        if (!options.capabilities) capabilities = session.capabilities;
        return session.runtimeVersion;
      });
      const notReady = (await options.readiness?.()) ?? null;
      return { found: true, version, ready: notReady === null, lastError: notReady };
    } catch (error) {
      return {
        found: false,
        version: null,
        ready: false,
        lastError: error instanceof Error ? error.message : String(error),
      };
    }
  }
}
