import type { ContextTransferId, ProviderKind, ThreadId } from "@skein/domain";
import { expect } from "vitest";
import type { Orchestrator } from "../../src/orchestrator/index.ts";

/** What the side turn is asked (the prompt's first words) and a well-formed answer to it. */
export const SUMMARY_PROMPT_START = "Write a handoff of this conversation";
export const PROVIDER_SUMMARY = [
  "## Goal",
  "Ship the job queue (run 1)",
  "## Decisions in force",
  "- falcon-q for the job queue (run 1)",
  "## Open tasks",
  "- rotate the signing keys (run 2)",
].join("\n");

type Skein = {
  orchestrator: Orchestrator;
  thread(threadId: ThreadId): Promise<Awaited<ReturnType<Orchestrator["repository"]["thread"]>>>;
};

/** Asks the source provider to write a pending transfer's handoff for `provider`; returns it. */
export async function askProviderToWrite(
  x: Skein,
  fork: ThreadId,
  transferId: ContextTransferId,
  provider: ProviderKind,
) {
  const { handoffId } = await x.orchestrator.regenerateHandoff({
    transferId,
    provider,
    writer: "provider",
  });
  const handoff = (await x.thread(fork)).handoffs.get(handoffId as never);
  if (!handoff) throw new Error(`handoff ${handoffId} is not recorded`);
  return handoff;
}

/** The handoff is the provider's summary, said to be written by it. */
export function expectWrittenBy(
  handoff: Awaited<ReturnType<typeof askProviderToWrite>>,
  provider: ProviderKind,
) {
  expect(handoff.payload.authorship).toEqual({ by: "provider", provider, fallbackReason: null });
  expect(handoff.summaryText).toMatch(
    new RegExp(`^# Context handoff\\nWritten by ${provider} from its own thread`),
  );
  expect(handoff.summaryText).toContain(PROVIDER_SUMMARY);
}

/** Skein's own handoff stood in for the provider's, with the reason. */
export function expectFallback(
  handoff: Awaited<ReturnType<typeof askProviderToWrite>>,
  provider: ProviderKind,
  reason: RegExp,
) {
  expect(handoff.payload.authorship).toMatchObject({ by: "skein", provider });
  expect(handoff.payload.authorship?.fallbackReason).toMatch(reason);
  expect(handoff.summaryText).toMatch(/^# Context handoff\nContext carried over/);
  expect(handoff.summaryText).toContain(
    "We'll use falcon-q for the job queue. (run 1, the person)",
  );
}

/** The context text the scripted provider's latest turn received. */
export function lastContextText(calls: readonly { op: string; args: unknown }[]) {
  const turn = calls.filter((c) => c.op === "startTurn").at(-1);
  const args = turn?.args as { input: { context?: { text: string } | null } } | undefined;
  return args?.input.context?.text;
}
