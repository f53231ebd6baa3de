import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ConfiguredProviderId,
  isConfiguredProviderId,
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
  type ProviderReadiness,
} from "@skein/domain/provider";
import { ScriptedSession } from "./scripted-session.ts";

/**
 * What the scripted agent does natively; each flag left off has its reason in SCRIPTED-NOTES.md
 * (A2). Checked against the agent by the contract suite (test/contract.int.test.ts).
 */
export const SCRIPTED_CAPABILITIES: ProviderCapabilityFlags = {
  nativeFork: true,
  forkAtTurn: true,
  rollback: true,
  steer: false,
  interrupt: true,
  resume: true,
  strongTurnIds: true,
  nativeSubagents: false,
  appOwnedTools: false,
  historyInjection: true,
  approvals: true,
  readHistory: false,
  planMode: false,
  effort: false,
  adoptSessions: false,
};

export type ScriptedAdapterOptions = {
  /**
   * The provider id it is registered under. Not a built-in provider: a host registers it beside
   * them (`extraProviders` in the API's provider registry), as a test does.
   */
  id?: string;
  /**
   * The agent's environment over the server's: `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY` for
   * its model, `SCRIPTED_AGENT_HOME` for its threads, `SCRIPTED_AGENT_MODEL`.
   */
  env?: Readonly<Record<string, string>>;
};

function scriptedProviderId(id = "scripted"): ConfiguredProviderId {
  if (!isConfiguredProviderId(id)) throw new Error(`not a usable provider id: ${id}`);
  return id;
}

/** The scripted agent (this package's `runtime/`) as a Skein provider (issue 27's third one). */
export function createScriptedAdapter(options: ScriptedAdapterOptions = {}): ProviderAdapter {
  const provider = scriptedProviderId(options.id);
  const environment = (extra?: Readonly<Record<string, string>>) => ({
    ...process.env,
    ...options.env,
    ...extra,
  });
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider,
    displayName: "Scripted agent",
    capabilities: SCRIPTED_CAPABILITIES,
    openSession: (input) =>
      ScriptedSession.open(provider, SCRIPTED_CAPABILITIES, {
        providerSessionId: input.providerSessionId,
        cwd: input.cwd,
        rawLog: input.rawLog,
        env: environment(input.env),
      }),
    status: () => probe(provider, environment()),
  };
}

/** B15: starts the agent in a throwaway folder, hears its version, and stops it. */
async function probe(
  provider: ConfiguredProviderId,
  env: Record<string, string | undefined>,
): Promise<ProviderReadiness> {
  const cwd = await mkdtemp(join(tmpdir(), "skein-scripted-probe-"));
  try {
    const session = await ScriptedSession.open(provider, SCRIPTED_CAPABILITIES, {
      providerSessionId: "probe",
      cwd,
      env,
    });
    await session.close();
    const ready = Boolean(env.ANTHROPIC_BASE_URL || env.ANTHROPIC_API_KEY);
    const lastError = ready ? null : "set ANTHROPIC_BASE_URL or ANTHROPIC_API_KEY for its model";
    return { found: true, version: session.runtimeVersion, ready, lastError };
  } catch (error) {
    const words = error instanceof Error ? error.message : String(error);
    return { found: false, version: null, ready: false, lastError: words };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
