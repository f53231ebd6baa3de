import type { HandoffPayload } from "@skein/domain";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HandoffOverview } from "./handoff-overview.tsx";

const run = (ordinal: number) => ({ threadId: "thr_a", ordinal }) as const;
const fact = (ordinal: number, text: string) =>
  ({ kind: "decision", text, by: "person", run: run(ordinal) }) as const;

const payload = {
  version: 1,
  strategy: "full_thread_summary",
  kind: "portable_context",
  transfer: {
    id: "ctx_a",
    type: "provider_handoff",
    sourceThreadId: "thr_a",
    targetThreadId: "thr_a",
  },
  targetProvider: "claude",
  toProviderThreadId: null,
  coverage: [{ threadId: "thr_a", runs: [{ from: 1, to: 400 }] }],
  omitted: [{ threadId: "thr_a", runs: [{ from: 2, to: 380 }] }],
  checkpoint: null,
  runs: [],
  manualText: null,
  historyTool: true,
  tokens: { budget: 16_000, used: 15_200 },
  authorship: {
    by: "skein",
    provider: "codex",
    fallbackReason: "the provider did not answer within 120 s",
  },
  brief: {
    goal: [{ ...fact(1, "Ship the exporter"), kind: "goal" }],
    decisions: [fact(40, "Use Postgres"), fact(90, "Use Kafka")],
    constraints: [],
    preferences: [],
    openTasks: [],
    files: [],
    errors: [],
    closed: [],
    lastExchange: { run: run(400), user: "go on", assistant: "ok" },
    left: {
      goal: 0,
      decisions: 7,
      constraints: 0,
      preferences: 0,
      openTasks: 0,
      files: 0,
      errors: 0,
      closed: 0,
    },
  },
} as unknown as HandoffPayload;

describe("B13: the handoff review shows what a handoff carries", () => {
  it("B13: sections with counts and what was left out, the budget used, the fallback reason", () => {
    const html = renderToStaticMarkup(createElement(HandoffOverview, { payload }));
    expect(html).toContain(
      '<li data-section="decisions"><strong>Decisions in force</strong> 2<span class="left-out"> (+7 left out)</span></li>',
    );
    expect(html).toContain("Last exchange</strong> run 400, verbatim");
    expect(html).not.toContain('data-section="constraints"');
    expect(html).toContain("Budget: 15,200 of 16,000 tokens");
    expect(html).toContain("Transcript left out for length: runs 2–380.");
    expect(html).toContain("retrievable: the target can search and read it with skein_history");
    expect(html).toContain("Codex could not write one (the provider did not answer within 120 s)");
  });

  it("B13: a provider-written handoff says who wrote it", () => {
    const written = {
      ...payload,
      authorship: { by: "provider", provider: "claude", fallbackReason: null },
    };
    const html = renderToStaticMarkup(
      createElement(HandoffOverview, { payload: written as HandoffPayload }),
    );
    expect(html).toContain("Written by Claude from its own");
    expect(html).not.toContain("could not write one");
  });
});
