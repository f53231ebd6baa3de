import { z } from "zod";
import {
  ContextHandoffId,
  ContextTransferId,
  NodeId,
  ProviderSessionId,
  ProviderThreadId,
  ThreadId,
} from "../ids.ts";
import { IsoTimestamp, NativeRef, ProviderKind } from "./common.ts";

export const ProviderThreadStatus = z.enum([
  "not_loaded",
  "idle",
  "active",
  "archived",
  "closed",
  "error",
]);
export type ProviderThreadStatus = z.infer<typeof ProviderThreadStatus>;

/** Where a natively forked provider thread came from (recorded for audit and C1/C2). */
export const ProviderThreadForkSource = z.object({
  providerThreadId: ProviderThreadId.nullable(),
  nativeThreadRef: NativeRef.nullable(),
  nativeTurnRef: NativeRef.nullable(),
  transferId: ContextTransferId.nullable(),
});
export type ProviderThreadForkSource = z.infer<typeof ProviderThreadForkSource>;

/**
 * E9: a provider-native conversation handle. Run coverage (`first/lastRunOrdinal`) may have gaps
 * that handoffs bridge (T7).
 */
export const ProviderThread = z
  .object({
    id: ProviderThreadId,
    provider: ProviderKind,
    providerSessionId: ProviderSessionId.nullable(),
    appThreadId: ThreadId.nullable(),
    ownerNodeId: NodeId.nullable(),
    /**
     * T9: for a provider thread nested under a subagent node, the child app thread that records
     * that sub-agent's work, so the link outlives the process (E8).
     */
    childThreadId: ThreadId.nullable().optional(),
    nativeThreadRef: NativeRef.nullable(),
    nativeConversationHeadRef: NativeRef.nullable(),
    status: ProviderThreadStatus,
    firstRunOrdinal: z.number().int().positive().nullable(),
    lastRunOrdinal: z.number().int().positive().nullable(),
    handoffIds: z.array(ContextHandoffId),
    forkedFrom: ProviderThreadForkSource.nullable(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .refine((t) => t.appThreadId !== null || t.ownerNodeId !== null, {
    message: "a provider thread belongs to an app thread or an owner node",
    path: ["appThreadId"],
  })
  .refine(
    (t) =>
      t.firstRunOrdinal === null ||
      t.lastRunOrdinal === null ||
      t.firstRunOrdinal <= t.lastRunOrdinal,
    { message: "firstRunOrdinal must not exceed lastRunOrdinal", path: ["lastRunOrdinal"] },
  );
export type ProviderThread = z.infer<typeof ProviderThread>;
