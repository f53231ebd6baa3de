import { z } from "zod";
import { ProviderSessionId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

/**
 * What a provider runtime can do; the orchestrator and transfer pick strategies from this.
 * Mirrors `ProviderCapabilityFlags` of the provider interface (checked in a type test).
 */
export const ProviderCapabilities = z.object({
  nativeFork: z.boolean(),
  forkAtTurn: z.boolean(),
  rollback: z.boolean(),
  steer: z.boolean(),
  resume: z.boolean(),
  strongTurnIds: z.boolean(),
  nativeSubagents: z.boolean(),
  appOwnedTools: z.boolean(),
  historyInjection: z.boolean(),
  interrupt: z.boolean(),
  approvals: z.boolean(),
  readHistory: z.boolean(),
  // Added later: sessions recorded before them read as lacking them.
  planMode: z.boolean().default(false),
  effort: z.boolean().default(false),
  adoptSessions: z.boolean().default(false),
});
export type ProviderCapabilities = z.infer<typeof ProviderCapabilities>;

export const ProviderSessionStatus = z.enum([
  "starting",
  "ready",
  "running",
  "waiting",
  "stopped",
  "error",
]);
export type ProviderSessionStatus = z.infer<typeof ProviderSessionStatus>;

/** E8: persisted metadata of a runtime, never the in-memory handle itself. */
export const ProviderSession = z.object({
  id: ProviderSessionId,
  provider: ProviderKind,
  status: ProviderSessionStatus,
  cwd: z.string().min(1),
  model: z.string().min(1).nullable(),
  capabilities: ProviderCapabilities,
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  lastError: z.string().nullable(),
  /**
   * The Skein instance whose process holds this runtime (runtime leases, issue 9), so recovery
   * stops only the sessions of dead instances. Absent on sessions recorded before owners were.
   */
  owner: z.string().min(1).nullable().optional(),
});
export type ProviderSession = z.infer<typeof ProviderSession>;
