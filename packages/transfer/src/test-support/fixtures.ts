import type {
  ContextTransfer,
  ProviderKind,
  ProviderThread,
  Run,
  RunStatus,
  TransferCapabilities,
  TurnItem,
} from "../inputs.ts";
import type { ResolveStartContextInput } from "../resolution-types.ts";

export const ALL_CAPABILITIES: TransferCapabilities = {
  nativeFork: true,
  forkAtTurn: true,
  resume: true,
};

export type RunSpan = {
  readonly threadId?: string;
  readonly from: number;
  readonly to: number;
  readonly provider: ProviderKind;
  readonly providerThreadId: string | null;
  readonly status?: RunStatus;
};

/** Runs `run_<thread>_<ordinal>` for each span, in ordinal order. */
export function runs(...spans: RunSpan[]): Run[] {
  return spans.flatMap((s) => {
    const threadId = s.threadId ?? "thr_main";
    const list: Run[] = [];
    for (let ordinal = s.from; ordinal <= s.to; ordinal++) {
      list.push({
        id: runId(threadId, ordinal),
        threadId,
        ordinal,
        provider: s.provider,
        providerThreadId: s.providerThreadId,
        status: s.status ?? "completed",
        checkpointId: `ckp_${threadId}_${ordinal}`,
      });
    }
    return list;
  });
}

export function runId(threadId: string, ordinal: number): string {
  return `run_${threadId}_${ordinal}`;
}

export function providerThread(
  id: string,
  provider: ProviderKind,
  first: number | null,
  last: number | null,
  extra: Partial<ProviderThread> = {},
): ProviderThread {
  return {
    id,
    provider,
    appThreadId: "thr_main",
    ownerNodeId: null,
    nativeThreadRef: `native_${id}`,
    status: "idle",
    firstRunOrdinal: first,
    lastRunOrdinal: last,
    handoffIds: [],
    ...extra,
  };
}

export function transfer(
  partial: Partial<ContextTransfer> & Pick<ContextTransfer, "type">,
): ContextTransfer {
  return {
    id: "ctx_1",
    sourceThreadId: "thr_source",
    targetThreadId: "thr_main",
    sourcePoint: { threadId: partial.sourceThreadId ?? "thr_source" },
    basePoint: null,
    sourceProvider: null,
    targetProvider: null,
    status: "pending",
    ...partial,
  };
}

export function resolveInput(
  partial: Partial<ResolveStartContextInput> = {},
): ResolveStartContextInput {
  return {
    threadId: "thr_main",
    provider: "codex",
    message: "next step please",
    capabilities: ALL_CAPABILITIES,
    pendingTransfers: [],
    providerThreads: [],
    runs: [],
    ...partial,
  };
}

export type ItemOptions = {
  readonly userChars?: number;
  readonly assistantChars?: number;
  readonly commands?: number;
  readonly files?: number;
};

/** Deterministic turn items for each run: text whose content names the run. */
export function turnItemsFor(list: readonly Run[], options: ItemOptions = {}): TurnItem[] {
  const items: TurnItem[] = [];
  for (const run of list) {
    const base = { runId: run.id, runOrdinal: run.ordinal };
    const tag = `${run.threadId}#${run.ordinal}`;
    items.push({
      ...base,
      id: `itm_${tag}_u`,
      type: "user_message",
      text: pad(`user asks ${tag}`, options.userChars ?? 0),
    });
    for (let c = 0; c < (options.commands ?? 1); c++) {
      items.push({
        ...base,
        id: `itm_${tag}_c${c}`,
        type: "command_execution",
        input: `pnpm test --filter pkg${c}`,
        status: "completed",
        exitCode: c % 2,
      });
    }
    for (let f = 0; f < (options.files ?? 1); f++) {
      items.push({
        ...base,
        id: `itm_${tag}_f${f}`,
        type: "file_change",
        fileName: `src/file-${f}.ts`,
        additions: 3,
        deletions: 1,
      });
    }
    items.push({
      ...base,
      id: `itm_${tag}_a`,
      type: "assistant_message",
      text: pad(`assistant answers ${tag}`, options.assistantChars ?? 0),
    });
  }
  return items;
}

function pad(text: string, chars: number): string {
  if (text.length >= chars) return text;
  const filler = " lorem ipsum dolor sit amet";
  return (text + filler.repeat(Math.ceil((chars - text.length) / filler.length))).slice(0, chars);
}
