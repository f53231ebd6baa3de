import { z } from "zod";

/**
 * Every persisted id is a branded string with a short kind prefix (docs/design.md). Ids are made
 * at the edge and reach `decide` through command data or `CommandMeta.ids`, never from a clock or
 * random source inside the domain.
 */
export const ID_PREFIXES = {
  project: "prj",
  thread: "thr",
  run: "run",
  attempt: "att",
  node: "nod",
  message: "msg",
  providerThread: "pth",
  providerTurn: "ptn",
  providerSession: "pss",
  transfer: "ctx",
  handoff: "hnd",
  request: "req",
  checkpointScope: "cks",
  checkpoint: "ckp",
  plan: "pln",
  item: "itm",
  command: "cmd",
  rawEvent: "raw",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

function idSchema<const B extends string>(kind: IdKind, brand: B) {
  const prefix = ID_PREFIXES[kind];
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{1,120}$`), {
      message: `expected a ${brand} ("${prefix}_…")`,
    })
    .brand<B>();
}

export const ProjectId = idSchema("project", "ProjectId");
export const ThreadId = idSchema("thread", "ThreadId");
export const RunId = idSchema("run", "RunId");
export const RunAttemptId = idSchema("attempt", "RunAttemptId");
export const NodeId = idSchema("node", "NodeId");
export const MessageId = idSchema("message", "MessageId");
export const ProviderThreadId = idSchema("providerThread", "ProviderThreadId");
export const ProviderTurnId = idSchema("providerTurn", "ProviderTurnId");
export const ProviderSessionId = idSchema("providerSession", "ProviderSessionId");
export const ContextTransferId = idSchema("transfer", "ContextTransferId");
export const ContextHandoffId = idSchema("handoff", "ContextHandoffId");
export const RuntimeRequestId = idSchema("request", "RuntimeRequestId");
export const CheckpointScopeId = idSchema("checkpointScope", "CheckpointScopeId");
export const CheckpointId = idSchema("checkpoint", "CheckpointId");
export const PlanId = idSchema("plan", "PlanId");
export const TurnItemId = idSchema("item", "TurnItemId");
export const CommandId = idSchema("command", "CommandId");
export const RawEventId = idSchema("rawEvent", "RawEventId");

export type ProjectId = z.infer<typeof ProjectId>;
export type ThreadId = z.infer<typeof ThreadId>;
export type RunId = z.infer<typeof RunId>;
export type RunAttemptId = z.infer<typeof RunAttemptId>;
export type NodeId = z.infer<typeof NodeId>;
export type MessageId = z.infer<typeof MessageId>;
export type ProviderThreadId = z.infer<typeof ProviderThreadId>;
export type ProviderTurnId = z.infer<typeof ProviderTurnId>;
export type ProviderSessionId = z.infer<typeof ProviderSessionId>;
export type ContextTransferId = z.infer<typeof ContextTransferId>;
export type ContextHandoffId = z.infer<typeof ContextHandoffId>;
export type RuntimeRequestId = z.infer<typeof RuntimeRequestId>;
export type CheckpointScopeId = z.infer<typeof CheckpointScopeId>;
export type CheckpointId = z.infer<typeof CheckpointId>;
export type PlanId = z.infer<typeof PlanId>;
export type TurnItemId = z.infer<typeof TurnItemId>;
export type CommandId = z.infer<typeof CommandId>;
export type RawEventId = z.infer<typeof RawEventId>;

/** Maps an id kind to its branded type, so `ids.next("run")` is a `RunId`. */
export type IdOf<K extends IdKind> = {
  project: ProjectId;
  thread: ThreadId;
  run: RunId;
  attempt: RunAttemptId;
  node: NodeId;
  message: MessageId;
  providerThread: ProviderThreadId;
  providerTurn: ProviderTurnId;
  providerSession: ProviderSessionId;
  transfer: ContextTransferId;
  handoff: ContextHandoffId;
  request: RuntimeRequestId;
  checkpointScope: CheckpointScopeId;
  checkpoint: CheckpointId;
  plan: PlanId;
  item: TurnItemId;
  command: CommandId;
  rawEvent: RawEventId;
}[K];

/** A deterministic supply of fresh ids for the events one `decide` call emits. */
export interface IdSource {
  next<K extends IdKind>(kind: K): IdOf<K>;
}

/**
 * Counter-based ids for tests and replays: `<prefix>_<seed>_<n>` with one counter per kind, so
 * the same seed always yields the same sequence.
 */
export function createSequentialIds(seed = "s"): IdSource {
  const counters = new Map<IdKind, number>();
  return {
    next<K extends IdKind>(kind: K): IdOf<K> {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${ID_PREFIXES[kind]}_${seed}_${String(n).padStart(4, "0")}` as IdOf<K>;
    },
  };
}

/** Brands a raw string after checking its prefix; for edges that already hold a trusted id. */
export function asId<K extends IdKind>(kind: K, raw: string): IdOf<K> {
  const prefix = `${ID_PREFIXES[kind]}_`;
  if (!raw.startsWith(prefix) || raw.length === prefix.length) {
    throw new TypeError(`"${raw}" is not a ${kind} id (expected "${prefix}…")`);
  }
  return raw as IdOf<K>;
}
