import { PROVIDERS } from "@skein/domain/provider";
import type { ProviderKind, ShellStatus } from "./types.ts";

const BUILT_IN_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([id, names]) => [id, names.label]),
);

/**
 * Each provider's short label (the registry in `@skein/domain/provider`). A configured ACP
 * agent's id (B18) is known only to the server, so it is shown as it is rather than as nothing.
 */
export const PROVIDER_LABEL = new Proxy(BUILT_IN_LABELS, {
  get: (labels, id) => (typeof id === "string" ? (labels[id] ?? id) : undefined),
}) as Record<ProviderKind, string>;

export const STATUS_LABEL: Record<ShellStatus, string> = {
  idle: "idle",
  running: "running",
  waiting: "waiting on approval",
  failed: "failed",
};

/** "Codex · gpt-5.5", or "Codex · default model" when the provider picks. */
export function providerModel(provider: ProviderKind | null, model: string | null): string {
  if (provider === null) return "no provider";
  return `${PROVIDER_LABEL[provider]} · ${model ?? "default model"}`;
}

// `toLocale*String` builds a new formatter on every call (~0.5 ms each); a thread page shows one
// time per run header, and re-rendering 50 headers that way took whole frames.
let timeFormat: Intl.DateTimeFormat | null = null;
let dateTimeFormat: Intl.DateTimeFormat | null = null;

export function shortTime(iso: string | null): string {
  if (iso === null) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === new Date().toDateString();
  if (sameDay) {
    timeFormat ??= new Intl.DateTimeFormat([], {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    return timeFormat.format(date);
  }
  dateTimeFormat ??= new Intl.DateTimeFormat([], { dateStyle: "short", timeStyle: "short" });
  return dateTimeFormat.format(date);
}

/** Humanizes enum values for display: `full_thread_summary` → "full thread summary". */
export function words(value: string): string {
  return value.replace(/[_-]+/g, " ");
}

export function ordinalRange(range: { from: number; to: number } | null | undefined): string {
  if (!range) return "—";
  return range.from === range.to ? `run ${range.from}` : `runs ${range.from}–${range.to}`;
}

export function shortId(id: string): string {
  const [prefix, rest] = id.split("_", 2);
  return rest === undefined ? id.slice(0, 10) : `${prefix}_${rest.slice(0, 6)}`;
}
