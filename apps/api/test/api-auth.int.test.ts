import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { ConfigError, parseEnv } from "../src/env.ts";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { WEB_ORIGIN } from "./support/test-server.ts";

const TOKEN = "test-token-0123456789abcdef";
let t: ScriptedTestServer;

beforeAll(async () => {
  t = await startScriptedServer({ token: TOKEN });
});
afterAll(async () => {
  await t.close();
});

describe("with SKEIN_API_TOKEN set", () => {
  it("a call without the token → UNAUTHORIZED, and nothing is appended", async () => {
    const anonymous = createSkeinClient({ url: t.server.url });
    const head = await t.store.headSequence();
    const query = await refusal(anonymous.thread.shells.query());
    expect(query).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401 });
    expect(query.message).toMatch(/Authorization: Bearer/);
    const mutation = await refusal(
      anonymous.project.create.mutate({ name: "x", workspaceRoot: "/tmp/x" }),
    );
    expect(mutation.code).toBe("UNAUTHORIZED");
    // Auth runs before input validation: a malformed call learns nothing about the schema.
    const malformed = await refusal(anonymous.thread.detail.query({ threadId: "bad" as never }));
    expect(malformed.code).toBe("UNAUTHORIZED");
    expect(await t.store.headSequence()).toBe(head);
  });

  it("a wrong token → UNAUTHORIZED", async () => {
    const wrong = createSkeinClient({ url: t.server.url, token: `${TOKEN}x` });
    expect((await refusal(wrong.health.query())).code).toBe("UNAUTHORIZED");
  });

  it("with the token → OK", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Authed",
      workspaceRoot: t.workspaceDir,
    });
    const list = await t.client.project.list.query();
    expect(list.projects.map((p) => p.id)).toContain(projectId);
  });

  it("subscriptions: refused without the token, served with it (header or connectionParams)", async () => {
    const anonymous = createSkeinClient({ url: t.server.url });
    const refused = new Recorder<unknown>();
    const sub = anonymous.thread.watchShells.subscribe({}, refused.handlers);
    await expect(refused.until(() => false, 5_000, "an error")).rejects.toMatchObject({
      data: { code: "UNAUTHORIZED" },
    });
    sub.unsubscribe();

    for (const subscriptionAuth of ["header", "connectionParams"] as const) {
      const client = createSkeinClient({ url: t.server.url, token: TOKEN, subscriptionAuth });
      const recorder = new Recorder<{ snapshotSequence: number }>();
      const watch = client.thread.watchShells.subscribe({}, recorder.handlers);
      await recorder.until(() => recorder.snapshots.length === 1, 5_000, "a snapshot");
      watch.unsubscribe();
    }
  });

  it("/healthz needs no token (liveness only)", async () => {
    const res = await fetch(`${t.server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe("browser origins", () => {
  it("CORS preflight is answered for the web UI origin only", async () => {
    const ok = await fetch(`${t.server.url}/trpc/thread.shells`, {
      method: "OPTIONS",
      headers: {
        origin: WEB_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(WEB_ORIGIN);
    expect(ok.headers.get("access-control-allow-headers")).toContain("authorization");
    // The typed client's fetch-based EventSource sends cache-control from a browser.
    expect(ok.headers.get("access-control-allow-headers")).toContain("cache-control");

    const evil = await fetch(`${t.server.url}/trpc/thread.shells`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a foreign origin cannot fire a 'simple' request at the API", async () => {
    const head = await t.store.headSequence();
    const res = await fetch(`${t.server.url}/trpc/project.create`, {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "text/plain" },
      body: JSON.stringify({ name: "pwned", workspaceRoot: "/tmp/pwned" }),
    });
    expect(res.status).toBe(403);
    expect(await t.store.headSequence()).toBe(head);
  });

  it("a DNS-rebound Host is refused on a loopback bind", async () => {
    expect(await statusWithHost(`attacker.example:${t.server.port}`)).toBe(403);
  });

  it("issue 35: a Host that only starts like loopback is refused (403, not 500); real loopback spellings pass", async () => {
    for (const host of [
      "127.0.0.1:80@evil.example",
      "127.0.0.1@evil.example",
      "localhost:1/evil",
      "127.0.0.1:80 evil.example",
      "[::1]x:80",
    ]) {
      expect(await statusWithHost(host), host).toBe(403);
    }
    for (const host of [`127.0.0.1:${t.server.port}`, "localhost", `[::1]:${t.server.port}`]) {
      expect(await statusWithHost(host), host).toBe(200);
    }
  });

  async function statusWithHost(host: string): Promise<number> {
    const { request } = await import("node:http");
    return new Promise<number>((resolve, reject) => {
      const req = request(`${t.server.url}/healthz`, { headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
  }
});

describe("configuration (env.ts)", () => {
  it("B11: tracing is off by default; the standard OTLP variables turn it on; a bad URL is refused", () => {
    expect(parseEnv({}).otlpTracesUrl).toBeNull();
    expect(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).otlpTracesUrl).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(
      parseEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      }).otlpTracesUrl,
    ).toBe("https://traces.example/otlp");
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/,
    );
  });

  it("plain folders' checkpoints live in <data dir>/checkpoints unless SKEIN_CHECKPOINTS_DIR (shared by instances) says where", () => {
    const data = path.resolve("/srv/skein-a");
    expect(parseEnv({ SKEIN_DATA_DIR: data }).checkpointsDir).toBe(path.join(data, "checkpoints"));
    expect(
      parseEnv({ SKEIN_DATA_DIR: data, SKEIN_CHECKPOINTS_DIR: "/shared/skein-checkpoints/" })
        .checkpointsDir,
    ).toBe(path.resolve("/shared/skein-checkpoints"));
    expect(parseEnv({ SKEIN_DATA_DIR: data, SKEIN_CHECKPOINTS_DIR: " " }).checkpointsDir).toBe(
      path.join(data, "checkpoints"),
    );
  });

  it("B20: no webhook by default; a webhook needs its signing secret, said in words", () => {
    expect(parseEnv({}).notifyWebhook).toBeNull();
    const secret = "0123456789abcdef0123";
    expect(
      parseEnv({
        SKEIN_NOTIFY_WEBHOOK: "https://chat.example/hook",
        SKEIN_NOTIFY_WEBHOOK_SECRET: secret,
      }).notifyWebhook,
    ).toEqual({ url: "https://chat.example/hook", secret });
    expect(() => parseEnv({ SKEIN_NOTIFY_WEBHOOK: "https://chat.example/hook" })).toThrow(
      /SKEIN_NOTIFY_WEBHOOK is set without SKEIN_NOTIFY_WEBHOOK_SECRET/,
    );
    expect(() => parseEnv({ SKEIN_NOTIFY_WEBHOOK: "chat.example/hook" })).toThrow(
      /SKEIN_NOTIFY_WEBHOOK: must be an http/,
    );
  });

  it("defaults: loopback, 4317/4318, ~/.skein, SQLite", () => {
    const config = parseEnv({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      apiPort: 4317,
      webPort: 4318,
      apiToken: null,
      logLevel: "info",
      database: { kind: "sqlite" },
      runRetries: 2,
      turnIdleTimeoutMs: 600_000,
      modelUnreachableMs: 60_000,
    });
    expect(config.dataDir).toMatch(/\.skein$/);
    expect(config.webOrigins).toContain("http://127.0.0.1:4318");
    expect(config.webOrigins).toContain("http://localhost:4318");
  });

  it("issue 32: SKEIN_USAGE_LIMIT_WAIT_MS bounds the wait on a limit with no named reset (15 min)", () => {
    expect(parseEnv({}).usageLimitWaitMs).toBe(15 * 60_000);
    expect(parseEnv({ SKEIN_USAGE_LIMIT_WAIT_MS: "60000" }).usageLimitWaitMs).toBe(60_000);
    expect(() => parseEnv({ SKEIN_USAGE_LIMIT_WAIT_MS: "5" })).toThrow(/SKEIN_USAGE_LIMIT_WAIT_MS/);
    expect(() => parseEnv({ SKEIN_USAGE_LIMIT_WAIT_MS: String(25 * 3_600_000) })).toThrow(
      /SKEIN_USAGE_LIMIT_WAIT_MS/,
    );
  });

  it("B2: SKEIN_RUN_RETRIES and SKEIN_TURN_IDLE_TIMEOUT_MS set the attempt limits; nonsense is refused", () => {
    expect(parseEnv({ SKEIN_RUN_RETRIES: "0", SKEIN_TURN_IDLE_TIMEOUT_MS: "0" })).toMatchObject({
      runRetries: 0,
      turnIdleTimeoutMs: 0,
    });
    expect(() => parseEnv({ SKEIN_RUN_RETRIES: "-1" })).toThrow(/SKEIN_RUN_RETRIES/);
    expect(parseEnv({ SKEIN_MODEL_UNREACHABLE_MS: "20000" }).modelUnreachableMs).toBe(20_000);
    expect(() => parseEnv({ SKEIN_MODEL_UNREACHABLE_MS: "5" })).toThrow(
      /SKEIN_MODEL_UNREACHABLE_MS/,
    );
    expect(() => parseEnv({ SKEIN_TURN_IDLE_TIMEOUT_MS: "5" })).toThrow(
      /SKEIN_TURN_IDLE_TIMEOUT_MS.*0 \(off\) or at least 1000/,
    );
  });

  it("a non-loopback host without a token is refused with a clear message", () => {
    expect(() => parseEnv({ SKEIN_HOST: "0.0.0.0" })).toThrow(ConfigError);
    expect(() => parseEnv({ SKEIN_HOST: "0.0.0.0" })).toThrow(/SKEIN_API_TOKEN/);
    const withToken = parseEnv({ SKEIN_HOST: "192.168.1.5", SKEIN_API_TOKEN: TOKEN });
    expect(withToken.webOrigins).toEqual(["http://192.168.1.5:4318"]);
  });

  it("PostgreSQL URLs select the shared store; short tokens and bad ports are refused", () => {
    expect(parseEnv({ SKEIN_DATABASE_URL: "postgres://localhost/skein" }).database).toEqual({
      kind: "postgres",
      url: "postgres://localhost/skein",
    });
    expect(parseEnv({ SKEIN_API_PORT: "4400", SKEIN_INSTANCE_ID: "api-1" }).instanceId).toBe(
      "api-1",
    );
    expect(parseEnv({ SKEIN_API_PORT: "4400" }).instanceId).toMatch(/:4400$/);
    expect(parseEnv({}).leaseTtlMs).toBe(30_000);
    expect(parseEnv({}).advertiseUrl).toBe("http://127.0.0.1:4317");
    expect(parseEnv({ SKEIN_API_PORT: "0" }).advertiseUrl).toBeNull();
    expect(parseEnv({ SKEIN_HOST: "::1", SKEIN_API_PORT: "4400" }).advertiseUrl).toBe(
      "http://[::1]:4400",
    );
    expect(parseEnv({ SKEIN_ADVERTISE_URL: "https://api-1.internal:8443/" }).advertiseUrl).toBe(
      "https://api-1.internal:8443",
    );
    expect(() => parseEnv({ SKEIN_ADVERTISE_URL: "api-1:4317" })).toThrow(/SKEIN_ADVERTISE_URL/);
    expect(() => parseEnv({ SKEIN_ADVERTISE_URL: "ftp://api-1/" })).toThrow(/SKEIN_ADVERTISE_URL/);
    expect(parseEnv({ SKEIN_LEASE_TTL_MS: "1500" }).leaseTtlMs).toBe(1_500);
    expect(() => parseEnv({ SKEIN_LEASE_TTL_MS: "10" })).toThrow(/SKEIN_LEASE_TTL_MS/);
    expect(() => parseEnv({ SKEIN_API_TOKEN: "short" })).toThrow(/at least 16 characters/);
    expect(() => parseEnv({ SKEIN_API_PORT: "http" })).toThrow(/SKEIN_API_PORT/);
    expect(parseEnv({ SKEIN_DATABASE_URL: "file:///var/tmp/x/skein.db" }).database).toEqual({
      kind: "sqlite",
      dataDir: "/var/tmp/x",
      filename: "skein.db",
    });
  });
});
