import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ProviderKind } from "@skein/domain";
import { z } from "zod";

/**
 * The one place that reads `process.env`. Everything else receives a validated `ServerConfig`,
 * so tests can build configs without touching the process environment.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MIN_TOKEN_LENGTH = 16;

/** Unset and empty mean the same thing (`SKEIN_API_TOKEN=` in a shell or `.env` file). */
const optionalText = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string().optional(),
);
const port = (fallback: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(0).max(65_535).default(fallback),
  );

/** An absolute http(s) base URL another instance can put `/trpc` after. */
function isHttpBaseUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash;
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  SKEIN_HOST: optionalText,
  SKEIN_API_PORT: port(4317),
  SKEIN_WEB_PORT: port(4318),
  SKEIN_DATA_DIR: optionalText,
  /** Issue 35: plain folders' checkpoint git dirs; instances sharing a database share it. */
  SKEIN_CHECKPOINTS_DIR: optionalText,
  SKEIN_DATABASE_URL: optionalText,
  SKEIN_INSTANCE_ID: optionalText,
  SKEIN_LEASE_TTL_MS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(500).default(30_000),
  ),
  SKEIN_RUN_RETRIES: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(0).max(10).default(2),
  ),
  /** Issue 32: how long a usage limit whose provider named no reset is waited out (15 min). */
  SKEIN_USAGE_LIMIT_WAIT_MS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number()
      .int()
      .min(1_000)
      .max(24 * 3_600_000)
      .default(15 * 60_000),
  ),
  /** B15: how long a turn may retry a model it cannot reach before Skein stops it (≤ 60 s). */
  SKEIN_MODEL_UNREACHABLE_MS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  ),
  SKEIN_TURN_IDLE_TIMEOUT_MS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number()
      .int()
      .refine((ms) => ms === 0 || ms >= 1_000, "must be 0 (off) or at least 1000")
      .default(600_000),
  ),
  /** B9: fan-out fork runs running at once. */
  SKEIN_FANOUT_CONCURRENCY: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(1).max(64).default(4),
  ),
  /** B9: archived, merged and orphaned fork worktrees are removed this long after. */
  SKEIN_WORKTREE_GRACE_MS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number()
      .int()
      .min(0)
      .default(24 * 60 * 60_000),
  ),
  /** B21: a provider runtime that has loaded more native threads is recycled once idle (0: never). */
  SKEIN_RUNTIME_MAX_THREADS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(0).default(64),
  ),
  /** B21: idle provider runtimes beyond this many are closed, least recently used first (0: no bound). */
  SKEIN_RUNTIME_MAX_LIVE: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce.number().int().min(0).default(8),
  ),
  SKEIN_ADVERTISE_URL: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL without query or fragment, e.g. http://10.0.0.5:4317",
  ),
  SKEIN_API_TOKEN: optionalText.refine(
    (token) => token === undefined || token.length >= MIN_TOKEN_LENGTH,
    `must be at least ${MIN_TOKEN_LENGTH} characters (try \`openssl rand -hex 32\`)`,
  ),
  // The standard OpenTelemetry names: a traces URL, or a collector base URL (+ /v1/traces).
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText.refine(
    (url) => url === undefined || isHttpUrl(url),
    "must be an http:// or https:// URL, e.g. http://127.0.0.1:4318/v1/traces",
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL without query or fragment, e.g. http://127.0.0.1:4318",
  ),
  /** B17: the person's GitHub token (else `gh auth token`). */
  GITHUB_TOKEN: optionalText,
  GH_TOKEN: optionalText,
  /** B17: GitHub Enterprise's API (`https://host/api/v3`), or a loopback fake in tests. */
  SKEIN_GITHUB_API_URL: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL, e.g. https://github.example.com/api/v3",
  ),
  /** B17: the secret `POST /webhooks/github` deliveries are signed with; unset: not served. */
  SKEIN_GITHUB_WEBHOOK_SECRET: optionalText.refine(
    (secret) => secret === undefined || secret.length >= MIN_TOKEN_LENGTH,
    `must be at least ${MIN_TOKEN_LENGTH} characters`,
  ),
  /** B20: an outside URL every notification is also POSTed to (signed; for chat tools). */
  SKEIN_NOTIFY_WEBHOOK: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL, e.g. https://chat.example.com/hooks/skein",
  ),
  /** B20: the HMAC secret of SKEIN_NOTIFY_WEBHOOK's `x-skein-signature` header. */
  SKEIN_NOTIFY_WEBHOOK_SECRET: optionalText.refine(
    (secret) => secret === undefined || secret.length >= MIN_TOKEN_LENGTH,
    `must be at least ${MIN_TOKEN_LENGTH} characters`,
  ),
  /** Where people open Skein's web UI: pull-request bodies link back to the thread there. */
  SKEIN_PUBLIC_URL: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL, e.g. http://127.0.0.1:4318",
  ),
  SKEIN_LOG_LEVEL: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined),
    z.enum(LOG_LEVELS).default("info"),
  ),
});

export type DatabaseConfig =
  | { kind: "sqlite"; dataDir: string; filename: string | undefined }
  /** Shared by several instances; `?schema=` in the URL picks the schema (default `public`). */
  | { kind: "postgres"; url: string };

export type ServerConfig = {
  host: string;
  apiPort: number;
  webPort: number;
  /** Browser origins allowed by CORS: the web UI's, in every loopback spelling when local. */
  webOrigins: string[];
  dataDir: string;
  /**
   * Where plain (non-git) project folders' checkpoints live, one git dir per folder by its real
   * path: `<dataDir>/checkpoints` unless SKEIN_CHECKPOINTS_DIR says otherwise. Instances sharing
   * a PostgreSQL database point it at one folder, so a checkpoint taken on one is the parent
   * the next run's checkpoint is taken against on another, and can be restored anywhere.
   */
  checkpointsDir: string;
  database: DatabaseConfig;
  /**
   * Names this instance in runtime leases. Stable across restarts (host + port unless
   * SKEIN_INSTANCE_ID says otherwise), so a restarted instance recognizes its previous
   * incarnation's leases as its own and recovers their runs at once instead of waiting for expiry.
   */
  instanceId: string;
  /** How long a runtime lease outlives its holder's last renewal (how fast a dead one is noticed). */
  leaseTtlMs: number;
  /** B20: the signed webhook every notification also goes to, if any. */
  notifyWebhook: { url: string; secret: string } | null;
  /**
   * Where other instances reach this one's API to forward runtime commands (steer, interrupt,
   * respond) for threads it owns. Null only when the port is picked at start (0): the server's
   * own URL is used once it listens.
   */
  advertiseUrl: string | null;
  /** B2: new attempts of a run after provider failures mid-turn. */
  runRetries: number;
  /** Issue 32: the wait on a usage limit whose provider named no reset. */
  usageLimitWaitMs: number;
  /** B2: a turn silent this long is stopped and retried (0: never). */
  turnIdleTimeoutMs: number;
  /** B15: a turn retrying a model it cannot reach is stopped this long after its first retry. */
  modelUnreachableMs: number;
  fanOutConcurrency: number;
  worktreeGraceMs: number;
  runtimeMaxThreads: number;
  runtimeMaxLive: number;
  apiToken: string | null;
  logLevel: LogLevel;
  /** B11: where OpenTelemetry spans are exported (OTLP/HTTP); null: tracing off. */
  otlpTracesUrl: string | null;
  /** B17: GitHub's API and token, the webhook secret, and the web UI's URL for links back. */
  github: {
    env: { GITHUB_TOKEN?: string; GH_TOKEN?: string; SKEIN_GITHUB_API_URL?: string };
    webhookSecret: string | null;
    publicUrl: string | null;
  };
};

/** A configuration the server must not start with; the message says what to change. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

function formatHostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export function webOriginsFor(host: string, webPort: number): string[] {
  if (isLoopbackHost(host)) {
    return ["127.0.0.1", "localhost", "[::1]"].map((name) => `http://${name}:${webPort}`);
  }
  return [`http://${formatHostForUrl(host)}:${webPort}`];
}

function databaseFrom(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return { kind: "sqlite", dataDir, filename: undefined };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url };
  // `file:` URLs and bare `sqlite:` paths name the SQLite file directly.
  let file: string;
  if (url.startsWith("file:")) file = fileURLToPath(url);
  else if (url.startsWith("sqlite:")) file = url.slice("sqlite:".length).replace(/^\/\//, "");
  else {
    throw new ConfigError(
      `SKEIN_DATABASE_URL=${JSON.stringify(url)} is not supported: use a file:/… or sqlite:… URL, ` +
        "or unset it for the default SQLite database.",
    );
  }
  const absolute = path.resolve(file);
  return { kind: "sqlite", dataDir: path.dirname(absolute), filename: path.basename(absolute) };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function otlpTracesUrl(env: {
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}): string | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/+$/, "");
  return base ? `${base}/v1/traces` : null;
}

/** Host and port; a random port (0) is not stable, so the process id stands in for it. */
function defaultInstanceId(apiPort: number): string {
  return `${os.hostname()}:${apiPort === 0 ? `pid${process.pid}` : apiPort}`;
}

type EnvSource = Readonly<Record<string, string | undefined>>;

/** `source` read through `schema`; a `ConfigError` listing every problem otherwise. */
function validated<S extends z.ZodType>(schema: S, source: EnvSource): z.output<S> {
  const parsed = schema.safeParse(source);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`,
  );
  throw new ConfigError(`invalid environment:\n${lines.join("\n")}`);
}

/** B20: a webhook needs its secret: an unsigned one would let anyone post as Skein. */
function notifyWebhookOf(
  url: string | undefined,
  secret: string | undefined,
): ServerConfig["notifyWebhook"] {
  if (url === undefined) return null;
  if (secret === undefined) {
    throw new ConfigError(
      "SKEIN_NOTIFY_WEBHOOK is set without SKEIN_NOTIFY_WEBHOOK_SECRET: set a secret of at least " +
        `${MIN_TOKEN_LENGTH} characters (e.g. \`openssl rand -hex 32\`); deliveries are signed with it.`,
    );
  }
  return { url: url.trim(), secret };
}

/** Validates an environment record; throws `ConfigError` with every problem listed. */
export function parseEnv(source: EnvSource): ServerConfig {
  const env = validated(EnvSchema, source);
  const host = env.SKEIN_HOST?.trim() ?? "127.0.0.1";
  const apiToken = env.SKEIN_API_TOKEN ?? null;
  if (!isLoopbackHost(host) && apiToken === null) {
    throw new ConfigError(
      `SKEIN_HOST=${host} would expose the API beyond this machine without authentication. ` +
        "Set SKEIN_API_TOKEN (at least 16 characters, e.g. `openssl rand -hex 32`) or bind " +
        "127.0.0.1.",
    );
  }
  const dataDir = path.resolve(env.SKEIN_DATA_DIR ?? path.join(os.homedir(), ".skein"));
  return {
    host,
    apiPort: env.SKEIN_API_PORT,
    webPort: env.SKEIN_WEB_PORT,
    webOrigins: webOriginsFor(host, env.SKEIN_WEB_PORT),
    dataDir,
    checkpointsDir: path.resolve(env.SKEIN_CHECKPOINTS_DIR ?? path.join(dataDir, "checkpoints")),
    database: databaseFrom(env.SKEIN_DATABASE_URL, dataDir),
    instanceId: env.SKEIN_INSTANCE_ID?.trim() ?? defaultInstanceId(env.SKEIN_API_PORT),
    leaseTtlMs: env.SKEIN_LEASE_TTL_MS,
    notifyWebhook: notifyWebhookOf(env.SKEIN_NOTIFY_WEBHOOK, env.SKEIN_NOTIFY_WEBHOOK_SECRET),
    advertiseUrl:
      env.SKEIN_ADVERTISE_URL?.trim().replace(/\/+$/, "") ??
      (env.SKEIN_API_PORT === 0 ? null : `http://${formatHostForUrl(host)}:${env.SKEIN_API_PORT}`),
    runRetries: env.SKEIN_RUN_RETRIES,
    usageLimitWaitMs: env.SKEIN_USAGE_LIMIT_WAIT_MS,
    turnIdleTimeoutMs: env.SKEIN_TURN_IDLE_TIMEOUT_MS,
    modelUnreachableMs: env.SKEIN_MODEL_UNREACHABLE_MS,
    fanOutConcurrency: env.SKEIN_FANOUT_CONCURRENCY,
    worktreeGraceMs: env.SKEIN_WORKTREE_GRACE_MS,
    runtimeMaxThreads: env.SKEIN_RUNTIME_MAX_THREADS,
    runtimeMaxLive: env.SKEIN_RUNTIME_MAX_LIVE,
    apiToken,
    logLevel: env.SKEIN_LOG_LEVEL,
    otlpTracesUrl: otlpTracesUrl(env),
    github: {
      env: {
        ...(env.GITHUB_TOKEN ? { GITHUB_TOKEN: env.GITHUB_TOKEN } : {}),
        ...(env.GH_TOKEN ? { GH_TOKEN: env.GH_TOKEN } : {}),
        ...(env.SKEIN_GITHUB_API_URL ? { SKEIN_GITHUB_API_URL: env.SKEIN_GITHUB_API_URL } : {}),
      },
      webhookSecret: env.SKEIN_GITHUB_WEBHOOK_SECRET ?? null,
      publicUrl:
        env.SKEIN_PUBLIC_URL?.trim() ?? `http://${formatHostForUrl(host)}:${env.SKEIN_WEB_PORT}`,
    },
  };
}

/** The server's configuration from the process environment. */
export function loadEnv(): ServerConfig {
  return parseEnv(process.env);
}

const ClientEnvSchema = z.object({
  SKEIN_URL: optionalText.refine(
    (url) => url === undefined || isHttpBaseUrl(url),
    "must be an http:// or https:// URL without query or fragment, e.g. http://127.0.0.1:4317",
  ),
  SKEIN_HOST: optionalText,
  SKEIN_API_PORT: port(4317),
  SKEIN_API_TOKEN: optionalText,
  /** `skein acp`: the provider of the threads its sessions start (else the session's mode). */
  SKEIN_ACP_PROVIDER: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    ProviderKind.optional(),
  ),
});

/** How `skein mcp` / `skein acp` reach a running Skein: its API and token. */
export type ClientConfig = {
  url: string;
  token: string | null;
  acpProvider: ProviderKind | null;
};

/** The edges' (MCP stdio, ACP) configuration: `SKEIN_URL`, else the server's host and port. */
export function parseClientEnv(source: EnvSource): ClientConfig {
  const env = validated(ClientEnvSchema, source);
  const host = env.SKEIN_HOST?.trim() ?? "127.0.0.1";
  return {
    url:
      env.SKEIN_URL?.trim().replace(/\/+$/, "") ??
      `http://${formatHostForUrl(host)}:${env.SKEIN_API_PORT}`,
    token: env.SKEIN_API_TOKEN ?? null,
    acpProvider: env.SKEIN_ACP_PROVIDER ?? null,
  };
}

export function loadClientEnv(): ClientConfig {
  return parseClientEnv(process.env);
}
