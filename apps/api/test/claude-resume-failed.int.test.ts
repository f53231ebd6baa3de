import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const harness = useClaudeSkeinHarness();

describe("Claude through Skein: a native resume that fails", () => {
  it("T7: the full-summary rebuild on the same provider says resume failed on which instance and why, never provider switch", async () => {
    const h = await harness();
    h.anthropic.enqueue(anthropicTextReply("answer one"), anthropicTextReply("answer two"));
    const threadId = await h.createThread({ provider: "claude" });
    const first = await h.send(threadId, "message one");
    const ref = first.state.providerThreads.get(
      first.state.runs.get(first.runId)!.providerThreadId!,
    )!.nativeThreadRef;

    // After a restart the session must be resumed from its transcript, which is gone.
    await h.restart();
    const projects = join(h.claudeConfigDir, "projects");
    for (const dir of readdirSync(projects)) {
      rmSync(join(projects, dir, `${ref}.jsonl`), { force: true });
    }

    const before = h.claudeRequests().length;
    const second = await h.send(threadId, "message two");
    const run = second.state.runs.get(second.runId)!;
    expect([run.status, run.error]).toEqual(["completed", null]);
    const handoff = second.state.handoffs.get(run.contextHandoffId!)!;
    expect(handoff.strategy).toBe("full_thread_summary");
    const why = `resume failed on instance local: No Claude conversation found with session ID ${ref}`;
    expect(handoff.payload.rebuildReason).toBe(why);
    expect(handoff.summaryText).toContain(`carried to a new claude thread (${why})`);
    expect(handoff.summaryText).not.toContain("provider switch");
    // Claude received the rebuilt context with the new message.
    const texts = anthropicUserTexts(h.claudeRequests().slice(before).at(-1)!).join("\n");
    expect(texts).toContain(why);
    expect(texts).toContain("message two");
  }, 180_000);
});
