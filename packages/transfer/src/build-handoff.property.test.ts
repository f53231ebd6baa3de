import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build-handoff.ts";
import type { BuildHandoffInput } from "./handoff-types.ts";
import type { Run, TurnItem } from "./inputs.ts";
import type { RunSegment } from "./run-history.ts";
import { estimateTokens } from "./token-budget.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const text = fc
  .tuple(fc.string({ maxLength: 12, unit: "binary" }), fc.nat({ max: 400 }))
  .map(([seed, times]) => (seed.length > 0 ? seed.repeat(times) : ""));

const runSpec = fc.record({
  thread: fc.constantFrom("thr_main", "thr_fork"),
  provider: fc.constantFrom("codex" as const, "claude" as const),
  status: fc.constantFrom("completed" as const, "interrupted" as const, "failed" as const),
  user: fc.option(text, { nil: null }),
  assistant: fc.option(text, { nil: null }),
  commands: fc.nat({ max: 3 }),
  files: fc.nat({ max: 3 }),
});

type RunSpec = typeof runSpec extends fc.Arbitrary<infer T> ? T : never;

function materialize(specs: readonly RunSpec[]) {
  const runs: Run[] = [];
  const items: TurnItem[] = [];
  const ordinals = new Map<string, number>();
  for (const spec of specs) {
    const ordinal = (ordinals.get(spec.thread) ?? 0) + 1;
    ordinals.set(spec.thread, ordinal);
    const id = `run_${spec.thread}_${ordinal}`;
    runs.push({
      id,
      threadId: spec.thread,
      ordinal,
      provider: spec.provider,
      providerThreadId: `pth_${spec.thread}_${spec.provider}`,
      status: spec.status,
    });
    const base = { runId: id, runOrdinal: ordinal };
    if (spec.user !== null)
      items.push({ ...base, id: `${id}_u`, type: "user_message", text: spec.user });
    for (let c = 0; c < spec.commands; c++) {
      items.push({
        ...base,
        id: `${id}_c${c}`,
        type: "command_execution",
        input: `make step${c}`,
        exitCode: c,
      });
    }
    for (let f = 0; f < spec.files; f++) {
      items.push({
        ...base,
        id: `${id}_f${f}`,
        type: "file_change",
        fileName: `f${f}.ts`,
        additions: f,
      });
    }
    if (spec.assistant !== null) {
      items.push({ ...base, id: `${id}_a`, type: "assistant_message", text: spec.assistant });
    }
  }
  const selection: RunSegment[] = ["thr_main", "thr_fork"].map((threadId) => ({
    threadId,
    ordinals: runs.filter((r) => r.threadId === threadId).map((r) => r.ordinal),
  }));
  return { runs, items, selection };
}

describe("handoff budget property", () => {
  it("the rendered text never exceeds the budget, the new message rides uncut, rebuilds are identical", () => {
    fc.assert(
      fc.property(
        fc.array(runSpec, { maxLength: 40 }),
        fc.integer({ min: 512, max: 6_000 }),
        fc.constantFrom(1, 2.5, 4, 6),
        fc.constantFrom(
          "full_thread_summary" as const,
          "delta_since_target_last_seen" as const,
          "checkpoint_summary" as const,
        ),
        fc.string({ maxLength: 3_000, unit: "binary" }),
        (specs, maxTokens, charsPerToken, strategy, newMessage) => {
          const { runs, items, selection } = materialize(specs);
          const input: BuildHandoffInput = {
            strategy,
            transfer: {
              id: "ctx_p",
              type: "merge_back",
              sourceThreadId: "thr_fork",
              targetThreadId: "thr_main",
            },
            selection,
            runs,
            turnItems: items,
            newMessage,
            checkpoint: {
              id: "ckp_p",
              runId: null,
              appRunOrdinal: null,
              ref: "r",
              status: "ready",
            },
            budget: { maxTokens, charsPerToken },
          };
          const build = buildHandoff(input);
          expect(estimateTokens(build.summaryText, charsPerToken)).toBeLessThanOrEqual(maxTokens);
          expect(build.promptText.endsWith(newMessage)).toBe(true);
          expect(LONE_SURROGATE.test(build.summaryText)).toBe(false);
          expect(build.payload.runs).toHaveLength(runs.length);
          expect(buildHandoff(structuredClone(input)).summaryText).toBe(build.summaryText);
        },
      ),
      { numRuns: 80 },
    );
  });
});
