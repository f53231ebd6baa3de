import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build-handoff.ts";
import { HandoffInputError } from "./handoff-content.ts";
import type { BuildHandoffInput } from "./handoff-types.ts";
import type { Run, TurnItem } from "./inputs.ts";
import { runs, turnItemsFor } from "./test-support/fixtures.ts";
import { estimateTokens } from "./token-budget.ts";

const switchTransfer = {
  id: "ctx_switch",
  type: "provider_handoff",
  sourceThreadId: "thr_main",
  targetThreadId: "thr_main",
} as const;
const all = (list: readonly Run[], threadId = "thr_main") => [
  { threadId, ordinals: list.filter((r) => r.threadId === threadId).map((r) => r.ordinal) },
];
const mixed = runs(
  { from: 1, to: 2, provider: "codex", providerThreadId: "pth_A" },
  { from: 3, to: 3, provider: "claude", providerThreadId: "pth_B", status: "failed" },
);

function input(
  list: readonly Run[],
  items: readonly TurnItem[],
  extra: Partial<BuildHandoffInput> = {},
) {
  return {
    strategy: "full_thread_summary",
    transfer: switchTransfer,
    selection: all(list),
    runs: list,
    turnItems: items,
    targetProvider: "codex",
    newMessage: "Now write the migration.",
    ...extra,
  } satisfies BuildHandoffInput;
}

describe("handoff rendering", () => {
  it("B16: opens with a coverage preamble naming the kind, runs and providers, and no internal ids in the text the model gets", () => {
    const { summaryText, payload } = buildHandoff(input(mixed, turnItemsFor(mixed)));
    const preamble = summaryText.split("\n\n")[0] ?? "";
    expect(preamble).toContain("kind: provider handoff · full thread summary");
    expect(preamble).toContain("covers: runs 1–3");
    expect(preamble).toContain("providers: codex runs 1–2; claude run 3");
    expect(preamble).not.toContain("left out for length");
    // Issue 25/29: ids stay in the payload, runs are cited by number in the text.
    // (The fixture's own message texts name their thread; nothing Skein adds does.)
    for (const id of ["ctx_switch", "pth_A", "pth_B", "run_thr_main"]) {
      expect(summaryText).not.toContain(id);
    }
    expect(payload.transfer.id).toBe("ctx_switch");
  });

  it("says provider switch only when the conversation changes provider", () => {
    const switched = buildHandoff(input(mixed, turnItemsFor(mixed))).summaryText;
    expect(switched).toContain("source: provider switch, whole conversation");
    const codexOnly = runs({ from: 1, to: 2, provider: "codex", providerThreadId: "pth_A" });
    const rebuilt = buildHandoff(input(codexOnly, turnItemsFor(codexOnly))).summaryText;
    expect(rebuilt).not.toContain("provider switch");
    expect(rebuilt).toContain(
      "source: whole conversation, carried to a new codex thread (the previous one could not be continued)",
    );
  });

  it("T7: a same-provider rebuild after a failed resume says where and why, not provider switch", () => {
    const codexOnly = runs({ from: 1, to: 2, provider: "codex", providerThreadId: "pth_A" });
    const reason = "resume failed on instance api-b: thread not found";
    const { summaryText, payload } = buildHandoff(
      input(codexOnly, turnItemsFor(codexOnly), { rebuildReason: reason }),
    );
    expect(payload.rebuildReason).toBe(reason);
    expect(summaryText).toContain(
      `source: whole conversation, carried to a new codex thread (${reason})`,
    );
    expect(summaryText).not.toContain("provider switch");
    expect(summaryText).not.toContain("could not be continued");
  });

  it("P6: a handoff built after a compaction says so on the run where the provider compacted", () => {
    const items: TurnItem[] = [
      ...turnItemsFor(mixed),
      { id: "itm_compact", runId: mixed[1]?.id ?? null, type: "compaction", status: "completed" },
    ];
    const { summaryText, payload } = buildHandoff(input(mixed, items));
    expect(payload.runs.map((run) => run.compacted ?? false)).toEqual([false, true, false]);
    expect(summaryText).toContain(
      "[run 2 · compaction] codex's context was compacted here: from then on it knew the earlier runs only through a summary",
    );
    // A compaction that did not complete changed nothing.
    const failed = items.map((item) =>
      item.id === "itm_compact" ? { ...item, status: "failed" } : item,
    );
    expect(buildHandoff(input(mixed, failed)).summaryText).not.toContain("context was compacted");
  });

  it("E16: a handoff carries a message's attachments by reference, not their bytes", () => {
    const file = { name: "pixel.png", mimeType: "image/png", ref: `sha256:${"a".repeat(64)}` };
    // As the log stores them: with their size, which a handoff leaves out.
    const stored = [{ ...file, sizeBytes: 67 }];
    const items: TurnItem[] = turnItemsFor(mixed).map((item) =>
      item.type === "user_message" && item.runId === mixed[0]?.id
        ? { ...item, attachments: stored }
        : item,
    );
    const { summaryText, payload } = buildHandoff(input(mixed, items));
    expect(payload.runs[0]?.attachments).toEqual([file]);
    expect(payload.runs[1]?.attachments).toBeUndefined();
    expect(summaryText).toContain(`[run 1 · attachment] pixel.png (image/png, ${file.ref})`);
  });

  it("attributes every line to its run and role, with commands, exit codes and file changes", () => {
    const items: TurnItem[] = [
      ...turnItemsFor(mixed, { commands: 2 }),
      {
        id: "itm_plan",
        runId: mixed[2]?.id ?? null,
        type: "plan",
        steps: [{ text: "add index", status: "completed" }],
      },
    ];
    const { summaryText, payload } = buildHandoff(input(mixed, items));
    expect(summaryText).toContain("## run 3 · claude · failed");
    expect(summaryText).toContain("[run 3 · user] user asks thr_main#3");
    expect(summaryText).toContain("[run 3 · claude assistant] assistant answers thr_main#3");
    expect(summaryText).toContain("[run 1 · codex assistant] assistant answers thr_main#1");
    expect(summaryText).toContain("[run 2 · command] `pnpm test --filter pkg1` → exit 1");
    expect(summaryText).toContain("[run 2 · file] src/file-0.ts +3 -1");
    expect(summaryText).toContain("[run 3 · plan] [completed] add index");
    expect(summaryText).toContain("[run 3 · error] run failed");
    expect(payload.runs[2]).toMatchObject({
      ordinal: 3,
      provider: "claude",
      inclusion: "full",
      userMessage: "user asks thr_main#3",
      commands: [
        { input: "pnpm test --filter pkg0", exitCode: 0 },
        { input: "pnpm test --filter pkg1", exitCode: 1 },
      ],
      fileChanges: [{ fileName: "src/file-0.ts", additions: 3, deletions: 1 }],
      plans: ["[completed] add index"],
      errors: ["run failed"],
    });
  });

  it("appends the new user message after the handoff, uncut", () => {
    const build = buildHandoff(input(mixed, turnItemsFor(mixed)));
    expect(build.promptText.startsWith(build.summaryText)).toBe(true);
    expect(build.promptText.endsWith("[new message · user]\nNow write the migration.")).toBe(true);
  });

  it("names other threads in attribution when a handoff spans several (a bring-back)", () => {
    const fork = runs({
      threadId: "thr_fork",
      from: 4,
      to: 5,
      provider: "claude",
      providerThreadId: "pth_F",
    });
    const { summaryText } = buildHandoff(
      input(fork, turnItemsFor(fork), {
        strategy: "delta_since_target_last_seen",
        transfer: {
          id: "ctx_merge",
          type: "merge_back",
          sourceThreadId: "thr_fork",
          targetThreadId: "thr_main",
          basePoint: { threadId: "thr_main", runId: "run_thr_main_3" },
        },
        selection: [
          { threadId: "thr_main", ordinals: [1] },
          { threadId: "thr_fork", ordinals: [4, 5] },
        ],
        runs: [...mixed, ...fork],
        turnItems: turnItemsFor([...mixed, ...fork]),
      }),
    );
    expect(summaryText).toContain("source: bring-back of a fork");
    expect(summaryText).toContain("covers: run 1 of thread 1; runs 4–5 of thread 2");
    expect(summaryText).toContain("[thread 2 run 5 · claude assistant]");
    expect(summaryText).toContain("[thread 1 run 1 · user]");
    expect(summaryText).not.toMatch(/thr_fork(?!#)|run_thr_main_3/);
  });

  it("checkpoint_summary names the checkpoint and totals its files since the thread start", () => {
    const items = turnItemsFor(mixed, { files: 2 });
    const build = buildHandoff(
      input(mixed, items, {
        strategy: "checkpoint_summary",
        selection: [{ threadId: "thr_main", ordinals: [1, 2] }],
        checkpoint: {
          id: "ckp_7",
          runId: mixed[1]?.id ?? null,
          appRunOrdinal: 2,
          ref: "a1b2c3",
          status: "ready",
        },
      }),
    );
    expect(build.kind).toBe("checkpoint_context");
    expect(build.summaryText).toContain("checkpoint: after run 2 · ready");
    expect(build.payload.checkpoint).toMatchObject({ checkpointId: "ckp_7", ref: "a1b2c3" });
    expect(build.summaryText).toContain("files changed since the thread start: 2");
    expect(build.summaryText).toContain("- src/file-0.ts +6 -2 (2 changes)");
    expect(build.payload.checkpoint?.files).toEqual([
      { fileName: "src/file-0.ts", changes: 2, additions: 6, deletions: 2 },
      { fileName: "src/file-1.ts", changes: 2, additions: 6, deletions: 2 },
    ]);
  });

  it("manual_context keeps the user's text verbatim", () => {
    const text = "  Keep the API stable.\n\nUse plan B.  ";
    const build = buildHandoff(
      input(mixed, turnItemsFor(mixed), {
        strategy: "manual_context",
        manualText: text,
        kind: "delta_context",
      }),
    );
    expect(build.summaryText).toBe(text);
    expect(build.kind).toBe("delta_context");
    expect(build.payload.manualText).toBe(text);
    expect(build.coveredRunOrdinals).toEqual({ from: 1, to: 3 });
    expect(() => buildHandoff(input(mixed, [], { strategy: "manual_context" }))).toThrow(
      HandoffInputError,
    );
  });

  it("rejects unknown runs, a budget below the minimum and a checkpoint summary without its checkpoint", () => {
    expect(() =>
      buildHandoff(input(mixed, [], { selection: [{ threadId: "thr_main", ordinals: [9] }] })),
    ).toThrow(HandoffInputError);
    expect(() => buildHandoff(input(mixed, [], { budget: { maxTokens: 100 } }))).toThrow(
      RangeError,
    );
    expect(() => buildHandoff(input(mixed, [], { strategy: "checkpoint_summary" }))).toThrow(
      HandoffInputError,
    );
  });
});

describe("handoff budget", () => {
  const thousand = runs({ from: 1, to: 1000, provider: "codex", providerThreadId: "pth_A" });
  const thousandItems = turnItemsFor(thousand, {
    userChars: 400,
    assistantChars: 1200,
    commands: 2,
  });

  it("Handoff: a 1,000-run handoff fits its budget, keeps the key messages and rebuilds byte-identically", () => {
    const build = buildHandoff(input(thousand, thousandItems));
    const text = build.summaryText;
    expect(estimateTokens(text)).toBeLessThanOrEqual(16_000);
    expect(build.tokens).toMatchObject({ budget: 16_000, summary: estimateTokens(text) });
    const byId = new Map(thousandItems.map((item) => [item.id, item.text ?? ""]));
    expect(text).toContain(`[run 1000 · user] ${byId.get("itm_thr_main#1000_u")}\n`);
    expect(text).toContain(`[run 1000 · codex assistant] ${byId.get("itm_thr_main#1000_a")}`);
    expect(text).toContain(`[run 1 · user] ${byId.get("itm_thr_main#1_u")}\n`);
    expect(text).toMatch(/transcript runs left out for length: runs 2–\d+\n/);
    expect(text).toMatch(/\n\[runs 2–\d+ omitted for length\]\n/);
    const rebuilt = buildHandoff(input(structuredClone(thousand), structuredClone(thousandItems)));
    expect(rebuilt.summaryText).toBe(text);
    expect(rebuilt.payload).toEqual(build.payload);
  });

  it("keeps the latest assistant reply even when the latest run has none", () => {
    const items = thousandItems.filter((item) => item.id !== "itm_thr_main#1000_a");
    const text = buildHandoff(input(thousand, items, { budget: { maxTokens: 1_000 } })).summaryText;
    expect(text).toContain("[run 1000 · user]");
    expect(text).toContain("[run 999 · codex assistant]");
    expect(text).toContain("[run 1 · user]");
  });

  it("truncates oversized key messages in the middle instead of dropping them", () => {
    const huge = "x".repeat(50_000);
    const items = thousandItems.map((item) =>
      item.id === "itm_thr_main#1000_u" ? { ...item, text: huge } : item,
    );
    const build = buildHandoff(input(thousand, items, { budget: { maxTokens: 2_000 } }));
    expect(estimateTokens(build.summaryText)).toBeLessThanOrEqual(2_000);
    expect(build.summaryText).toMatch(/\[run 1000 · user\] x+ … \[\d+ chars omitted\] … x+\n/);
    expect(build.summaryText).toContain("[run 1000 · codex assistant]");
    expect(build.summaryText).toContain("[run 1 · user]");
    expect(build.payload.runs[999]?.inclusion).toBe("partial");
  });

  it("never cuts the new user message, however long", () => {
    const message = "m".repeat(200_000);
    const build = buildHandoff(
      input(mixed, turnItemsFor(mixed), { newMessage: message, budget: { maxTokens: 512 } }),
    );
    expect(build.promptText.endsWith(message)).toBe(true);
    expect(build.tokens.summary).toBeLessThanOrEqual(512);
    expect(build.tokens.newMessage).toBe(50_000);
  });
});
