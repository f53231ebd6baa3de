import { asId, type Run, runOffsetOf, type ThreadState, type TurnItem } from "@skein/domain";
import { buildHandoff } from "@skein/transfer";

const SUMMARY_TOKENS = 1_200;

/**
 * The pull request's body: the thread's summary as the handoff builder writes it for another
 * agent (bounded), and a link back to the thread (or its id when Skein's public URL is unknown).
 */
export function pullRequestBody(state: ThreadState, publicUrl: string | null): string {
  const thread = state.thread!;
  const link = publicUrl
    ? `[${thread.title}](${publicUrl.replace(/\/+$/, "")}/threads/${thread.id})`
    : `${thread.title} (thread ${thread.id})`;
  const summary = threadSummary(state);
  return [summary ? `## Summary\n\n${summary}` : null, `---\nOpened from Skein: ${link}`]
    .filter(Boolean)
    .join("\n\n");
}

function threadSummary(state: ThreadState): string {
  const thread = state.thread!;
  const runs = state.runOrder
    .map((id) => state.runs.get(id))
    .filter((run): run is Run => run?.status === "completed");
  if (runs.length === 0) return "";
  const turnItems: TurnItem[] = [...state.turnItems.values()]
    .sort((a, b) => a.sortKey - b.sortKey)
    .map((entry) => entry.item);
  try {
    const build = buildHandoff({
      strategy: "full_thread_summary",
      transfer: {
        id: asId("transfer", "ctx_pull_request"),
        type: "provider_handoff",
        sourceThreadId: thread.id,
        targetThreadId: thread.id,
      },
      selection: [{ threadId: thread.id, ordinals: runs.map((r) => r.ordinal) }],
      runs,
      turnItems,
      // A fork's runs are numbered on from the ones it inherited, as in the UI (B16).
      runOffsets: new Map([[thread.id, runOffsetOf(state.inheritance)]]),
      // E3: its compaction/imported runs take no number, as in the UI.
      asideRuns: new Map([[thread.id, state.asideRuns]]),
      budget: { maxTokens: SUMMARY_TOKENS },
    });
    // The builder's opening lines speak to an agent taking over; a reviewer needs the rest.
    return build.summaryText
      .split("\n")
      .filter((line) => !line.startsWith("Context carried over") && !line.startsWith("source:"))
      .join("\n")
      .trim();
  } catch {
    return "";
  }
}
