import { type FakeProviders, startFakeProviders } from "./fake-providers.ts";
import { type Child, freePort, startApi, startWeb } from "./processes.ts";

export type Stack = {
  providers: FakeProviders;
  api: Child & { dataDir: string };
  web: Child;
  close(): Promise<void>;
};

/** Fake models → real Codex/Claude → `apps/api/src/main.ts` → the built UI, on free ports. */
export async function startStack(
  mode: "start" | "dev" = "start",
  options: {
    codexFeatures?: Record<string, boolean>;
    /** B15: neither runtime signed in; every model URL a dead loopback port. */
    signedOut?: boolean;
    /** Writes a history into the API's data dir before the API opens it. */
    seed?: (dataDir: string) => Promise<void>;
    /** More environment for the API process (a fake GitHub's URL, say). */
    apiEnv?: Record<string, string>;
  } = {},
): Promise<Stack> {
  const providers = await startFakeProviders({
    ...(options.codexFeatures ? { codexFeatures: options.codexFeatures } : {}),
    ...(options.signedOut ? { signedOut: true } : {}),
  });
  const webPort = await freePort();
  let api: Child & { dataDir: string };
  try {
    api = await startApi({
      webPort,
      env: { ...providers.env, ...options.apiEnv },
      ...(options.seed ? { seed: options.seed } : {}),
    });
  } catch (error) {
    await providers.close();
    throw error;
  }
  let web: Child;
  try {
    web = await startWeb({ port: webPort, apiUrl: api.url, mode });
  } catch (error) {
    await api.stop();
    await providers.close();
    throw error;
  }
  return {
    providers,
    api,
    web,
    async close() {
      await web.stop();
      await api.stop();
      await providers.close();
    },
  };
}
