import type { ProviderKind, ThreadId, ThreadState } from "@skein/domain";
import type { NativeTurnBoundary } from "@skein/domain/provider";
import {
  checkProviderSummary,
  estimateTokens,
  type HandoffBuild,
  providerSummaryPrompt,
  providerSummaryText,
  type TransferInputs,
} from "@skein/transfer";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { SideTurnSource, SummaryWriter } from "./side-turn-summary.ts";
import { runtimeEnvOf } from "../workspaces/worktree-setup.ts";

type Deps = {
  repo: AggregateRepository;
  summaries?: SummaryWriter;
  capabilities(provider: ProviderKind): { nativeFork: boolean } | null;
};

/** The text and payload a handoff is recorded with, and who wrote it. */
export type Authored = Pick<HandoffBuild, "summaryText" | "payload">;

/**
 * Where the side turn can run: the provider thread that holds every covered run, forked at the
 * last of them. Null with the reason when none does (mixed providers, no native turn, no fork).
 */
async function sideTurnSource(
  deps: Deps,
  inputs: TransferInputs,
  build: HandoffBuild,
): Promise<SideTurnSource | { reason: string }> {
  const covered = build.payload.coverage.flatMap((c) =>
    c.runs.flatMap((r) =>
      Array.from({ length: r.to - r.from + 1 }, (_, i) => ({
        threadId: c.threadId,
        ordinal: r.from + i,
      })),
    ),
  );
  const runs = covered.map(({ threadId, ordinal }) =>
    inputs.runs.find((run) => run.threadId === threadId && run.ordinal === ordinal),
  );
  const last = runs.at(-1);
  if (!last?.providerThreadId) return { reason: "the covered runs have no provider thread" };
  const holder = last.providerThreadId;
  if (runs.some((run) => run?.providerThreadId !== holder)) {
    return { reason: "no single provider thread holds every covered run (they ran on several)" };
  }
  const state = inputs.threads.get(last.threadId as ThreadId) as ThreadState | undefined;
  const providerThread = state?.providerThreads.get(holder);
  if (!state?.thread || !providerThread?.nativeThreadRef) {
    return { reason: "the source's provider thread has no native ref" };
  }
  if (!deps.capabilities(providerThread.provider)?.nativeFork) {
    return { reason: `${providerThread.provider} cannot fork its thread natively here` };
  }
  const history = [...state.providerTurns.values()]
    .filter((t) => t.providerThreadId === holder)
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((t) => ({ nativeTurnRef: t.nativeTurnRef, ordinal: t.ordinal, status: t.status }));
  const lastRun = state.runs.get(last.id as never);
  const turn = [...state.providerTurns.values()]
    .filter((t) => t.providerThreadId === holder && t.nodeId === lastRun?.rootNodeId)
    .sort((a, b) => b.ordinal - a.ordinal)[0];
  const isLatest = providerThread.lastRunOrdinal === last.ordinal;
  if (!turn && !isLatest) return { reason: `no native turn is recorded for run ${last.ordinal}` };
  const at: NativeTurnBoundary | null =
    turn && !isLatest
      ? {
          turn: { nativeTurnRef: turn.nativeTurnRef, ordinal: turn.ordinal, status: turn.status },
          history,
        }
      : null;
  const project = await deps.repo.project(state.thread.projectId);
  return {
    provider: providerThread.provider,
    nativeThreadRef: providerThread.nativeThreadRef,
    at,
    cwd: state.thread.worktreePath ?? project.project?.workspaceRoot ?? process.cwd(),
    model: lastRun?.model ?? null,
    env: runtimeEnvOf(state.thread),
  };
}

/**
 * Issue 25 item 3: the source provider writes the handoff on a side turn of a native fork of
 * its own thread; Skein's deterministic build stands in, with the reason recorded, when it
 * cannot (no single thread, no native fork), fails, times out, or exceeds the budget.
 */
export async function providerAuthored(
  deps: Deps,
  inputs: TransferInputs,
  build: HandoffBuild,
): Promise<Authored> {
  const fallback = (provider: ProviderKind | null, reason: string): Authored => ({
    summaryText: build.summaryText,
    payload: { ...build.payload, authorship: { by: "skein", provider, fallbackReason: reason } },
  });
  if (!deps.summaries) return fallback(null, "no provider can write summaries on this server");
  const source = await sideTurnSource(deps, inputs, build);
  if ("reason" in source) return fallback(null, source.reason);
  let text: string;
  try {
    text = await deps.summaries(source, providerSummaryPrompt(build, inputs));
  } catch (error) {
    return fallback(source.provider, error instanceof Error ? error.message : String(error));
  }
  const checked = checkProviderSummary(text, build);
  if (!checked.ok) return fallback(source.provider, checked.reason);
  const summaryText = providerSummaryText(checked.text, source.provider, build, inputs);
  return {
    summaryText,
    payload: {
      ...build.payload,
      tokens: { budget: build.tokens.budget, used: estimateTokens(summaryText) },
      authorship: { by: "provider", provider: source.provider, fallbackReason: null },
    },
  };
}
