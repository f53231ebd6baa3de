import { PROVIDER_IDS } from "@skein/domain/provider";
import type { RouterInputs, RouterOutputs } from "@skein/contract";

/**
 * The UI's vocabulary, derived from the API's router outputs so that it always matches what the
 * server sends (the domain types reach the browser only through these).
 */
export type ThreadDetail = RouterOutputs["thread"]["detail"];
export type ThreadGraph = RouterOutputs["thread"]["graph"];
export type PendingRequestList = RouterOutputs["request"]["pending"];
export type ThreadTimeline = RouterOutputs["thread"]["timeline"];
export type ForkComparison = RouterOutputs["thread"]["compare"];
export type ForkSummary = ForkComparison["forks"][number];
export type TimelinePoint = ThreadTimeline["points"][number];
export type ThreadShellList = RouterOutputs["thread"]["shells"];
export type ThreadShell = ThreadShellList["threads"][number];
export type ShellStatus = ThreadShell["status"];
export type Project = RouterOutputs["project"]["list"]["projects"][number];
export type TransferView = RouterOutputs["transfer"]["get"];
export type Handoff = NonNullable<TransferView["handoff"]>;
export type ProviderStatus = RouterOutputs["provider"]["status"][number];
export type ProviderModel = RouterOutputs["provider"]["models"][number];

export type TurnItem = ThreadDetail["turnItems"][number];
export type TurnItemType = TurnItem["type"];
export type TurnItemOf<T extends TurnItemType> = Extract<TurnItem, { type: T }>;
export type Run = ThreadDetail["runs"][number];
export type Transfer = ThreadDetail["transfers"][number];
export type Checkpoint = ThreadDetail["checkpoints"][number];
export type PendingRequest = ThreadDetail["pendingRequests"][number];

export type ProviderKind = Run["provider"];
/** Every registered provider, in registration order (the first is the default choice). */
export const PROVIDERS: readonly ProviderKind[] = PROVIDER_IDS;
export const DEFAULT_PROVIDER: ProviderKind = PROVIDER_IDS[0];
export type RuntimeMode = NonNullable<RouterInputs["thread"]["create"]["runtimeMode"]>;
export type ForkSourcePoint = NonNullable<RouterInputs["thread"]["fork"]["sourcePoint"]>;
export type RequestDecision = RouterInputs["request"]["respond"]["decision"];

/**
 * What a watch procedure yields (S2): a snapshot, then one message per later event, in order,
 * each tracked with its own sequence.
 */
export type WatchMessage<TSnapshot> =
  | { type: "snapshot"; data: TSnapshot }
  | { type: "event"; event: StoredEvent };

/** The store envelope every watch event carries (docs/design.md). */
export type StoredEvent = {
  sequence: number;
  streamId: string;
  streamVersion: number;
  type: string;
  data?: unknown;
  commandId: string | null;
  recordedAt: string;
};
