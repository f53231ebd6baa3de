/**
 * The slices of domain entities that transfer reads, derived from `@skein/domain` so a field the
 * domain renames or an enum value it adds reaches transfer at compile time. Two deliberate
 * differences: ids are plain strings (transfer builds and compares them; callers such as tests
 * and the inspector need not brand them), and fields the domain keeps as `T | null` that only
 * some callers have are optional, so the SPEC (`runId?`) and the seed (`runId: … | null`)
 * spellings both fit. Fields are readonly.
 */
import type * as D from "@skein/domain";
import type { ConfiguredProviderId } from "@skein/domain/provider";

/**
 * A domain id (a branded string) read as a plain string; enums, provider ids (a configured one is
 * branded too, B18) and other values unchanged.
 */
type Plain<T> = T extends ConfiguredProviderId
  ? T
  : T extends string
    ? // biome-ignore lint/complexity/noBannedTypes: `{}` is "no brand left after removing string's keys".
      {} extends Omit<T, keyof string>
      ? T
      : string
    : T extends readonly (infer U)[]
      ? readonly Plain<U>[]
      : T extends object
        ? { readonly [K in keyof T]: Plain<T[K]> }
        : T;

/** `Required` fields as the domain has them; `Optional` ones may be left out by callers. */
type Slice<T, Required extends keyof T, Optional extends keyof T = never> = Plain<
  Pick<T, Required>
> &
  Partial<Plain<Pick<T, Optional>>>;

export type ThreadId = Plain<D.ThreadId>;
export type RunId = Plain<D.RunId>;
export type ProviderThreadId = Plain<D.ProviderThreadId>;
export type ContextTransferId = Plain<D.ContextTransferId>;
export type ContextHandoffId = Plain<D.ContextHandoffId>;
export type CheckpointId = Plain<D.CheckpointId>;
export type TurnItemId = Plain<D.TurnItemId>;
export type NodeId = Plain<D.NodeId>;

export type ProviderKind = D.ProviderKind;
export type RunStatus = D.RunStatus;
export type ProviderThreadStatus = D.ProviderThread["status"];
export type ContextTransferType = D.ContextTransfer["type"];
export type ContextTransferStatus = D.ContextTransfer["status"];
export type ContextHandoffStrategy = D.ContextHandoff["strategy"];
export type ContextHandoffKind = D.ContextHandoff["kind"];
export type ContextHandoffStatus = D.ContextHandoff["status"];
export type CheckpointStatus = D.Checkpoint["status"];
export type TurnItemType = D.TurnItemType;

/** E3 — only the fields transfer reads. */
export type Run = Slice<
  D.Run,
  "id" | "threadId" | "ordinal" | "provider" | "providerThreadId" | "status",
  "checkpointId" | "compact"
>;

/** E9 — a provider-native conversation with its (possibly gapped) run coverage. */
export type ProviderThread = Slice<
  D.ProviderThread,
  | "id"
  | "provider"
  | "nativeThreadRef"
  | "status"
  | "firstRunOrdinal"
  | "lastRunOrdinal"
  | "handoffIds",
  "appThreadId" | "ownerNodeId"
>;

/** E12 */
export type ContextSourcePoint = Slice<
  D.ContextSourcePoint,
  "threadId",
  "runId" | "checkpointId" | "turnItemId" | "providerThreadRef" | "providerTurnRef"
>;

/** E11 — only the fields transfer reads. */
export type ContextTransfer = Slice<
  D.ContextTransfer,
  "id" | "type" | "sourceThreadId" | "targetThreadId" | "status",
  "sourceProvider" | "targetProvider"
> & {
  readonly sourcePoint: ContextSourcePoint;
  readonly basePoint?: ContextSourcePoint | null;
};

/** E14 — the coverage slice, used to verify that a provider thread's gaps were bridged. */
export type ContextHandoff = Slice<D.ContextHandoff, "id" | "toProviderThreadId" | "status"> & {
  readonly coveredRunOrdinals: { readonly from: number; readonly to: number } | null;
};

/** E7 — enough to locate a checkpoint source point and name it in a checkpoint summary. */
export type Checkpoint = Slice<D.Checkpoint, "id" | "runId" | "appRunOrdinal" | "ref" | "status">;

/**
 * P6 turn item, flattened: every variant field is optional so each member of the domain's
 * discriminated union is assignable. Fields whose exact shape the domain may refine (`input`,
 * `output`, `steps`) are `unknown` and narrowed where read.
 */
export type TurnItem = {
  readonly id: TurnItemId;
  readonly runId: RunId | null;
  readonly runOrdinal?: number | null;
  readonly type: TurnItemType;
  readonly status?: string | null;
  readonly text?: string | null;
  readonly markdown?: string | null;
  readonly steps?: unknown;
  readonly fileName?: string | null;
  readonly additions?: number | null;
  readonly deletions?: number | null;
  /** file_change: the change as a diff, or the new text, when the runtime reported it. */
  readonly diffStr?: string | null;
  readonly newStr?: string | null;
  /** plan: proposed_plan | todo_list | questions (E17). */
  readonly kind?: string | null;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly exitCode?: number | null;
  readonly toolName?: string | null;
  /** E16: files a user message carried (by reference to the stored bytes). */
  readonly attachments?: readonly HandoffAttachment[];
};

export type HandoffAttachment = {
  readonly name: string;
  readonly mimeType: string;
  readonly ref: string;
};

/** The provider adapter capabilities that decide between native and portable transfer. */
export type TransferCapabilities = Readonly<
  Pick<D.ProviderCapabilities, "nativeFork" | "forkAtTurn" | "resume"> &
    Partial<Pick<D.ProviderCapabilities, "appOwnedTools">>
>;
