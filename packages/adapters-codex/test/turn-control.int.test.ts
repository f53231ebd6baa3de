import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { NotificationEnvelope } from "../src/rpc/app-server-client.ts";
import type { ThreadItem } from "../src/protocol/index.ts";
import { CodexHarness } from "./support/codex-harness.ts";
import {
  conversationText,
  execCommandReply,
  functionCallOutputs,
  httpErrorReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";

// `untrusted` asks before any command outside Codex's known-safe list; full access keeps the
// sandbox (bubblewrap, unavailable as root here) out of the picture.
const APPROVAL_REQUIRED = { approvalPolicy: "untrusted", sandbox: "danger-full-access" } as const;

function completedCommands(notifications: NotificationEnvelope[]) {
  return notifications.flatMap((n) =>
    n.method === "item/completed" && n.params.item.type === "commandExecution"
      ? [n.params.item as Extract<ThreadItem, { type: "commandExecution" }>]
      : [],
  );
}

describe("turn control (real binary)", () => {
  test("approval accept runs the command and its output reaches item/completed", async () => {
    const harness = await CodexHarness.forTest({
      script: [
        execCommandReply("echo ran > accepted.txt && echo APPROVED-OUTPUT"),
        responsesTextReply("command finished"),
      ],
    });
    harness.handleServerRequests((request) => {
      if (request.method === "item/commandExecution/requestApproval") {
        request.respond({ decision: "accept" });
      }
    });
    const thread = await harness.startThread(APPROVAL_REQUIRED);
    const result = await harness.runTurn(thread.id, "please run it");

    expect(result.turn.status).toBe("completed");
    const [approval] = harness.serverRequests;
    expect(approval?.method).toBe("item/commandExecution/requestApproval");
    if (approval?.method !== "item/commandExecution/requestApproval") return;
    expect(approval.params.command).toContain("APPROVED-OUTPUT");
    expect(approval.params.turnId).toBe(result.turn.id);
    expect(approval.state).toBe("answered");
    expect(approval.rawEventId).toMatch(/^raw_/);

    const [command] = completedCommands(result.notifications);
    expect(command).toMatchObject({ status: "completed", exitCode: 0, id: approval.params.itemId });
    expect(command?.aggregatedOutput).toContain("APPROVED-OUTPUT");
    expect(existsSync(path.join(harness.workdir, "accepted.txt"))).toBe(true);
    // Codex withdrew the request once answered.
    expect(result.notifications.some((n) => n.method === "serverRequest/resolved")).toBe(true);
    const followUp = harness.server.requests[1];
    if (!followUp) throw new Error("no follow-up model request");
    expect(functionCallOutputs(followUp)[0]?.output).toContain("APPROVED-OUTPUT");
  });

  test("approval decline does not run the command; the turn still completes", async () => {
    const harness = await CodexHarness.forTest({
      script: [execCommandReply("echo ran > declined.txt"), responsesTextReply("ok, not running")],
    });
    harness.handleServerRequests((request) => {
      if (request.method === "item/commandExecution/requestApproval") {
        request.respond({ decision: "decline" });
      }
    });
    const thread = await harness.startThread(APPROVAL_REQUIRED);
    const result = await harness.runTurn(thread.id, "please run it");

    expect(result.turn.status).toBe("completed");
    const [command] = completedCommands(result.notifications);
    expect(command).toMatchObject({ status: "declined", exitCode: null, aggregatedOutput: null });
    expect(existsSync(path.join(harness.workdir, "declined.txt"))).toBe(false);
    const followUp = harness.server.requests[1];
    if (!followUp) throw new Error("no follow-up model request");
    expect(functionCallOutputs(followUp)[0]?.output).toContain("rejected by user");
  });

  test("an approval answered later (after other work) is still delivered", async () => {
    const harness = await CodexHarness.forTest({
      script: [execCommandReply("echo LATE-OK"), responsesTextReply("done")],
    });
    const thread = await harness.startThread(APPROVAL_REQUIRED);
    const from = harness.log.size;
    const { turn } = await harness.startTurn(thread.id, "run later");
    const approval = await harness.waitForServerRequest(0);
    // Other traffic while the approval is open must not disturb it.
    await harness.client.request("thread/read", { threadId: thread.id });
    expect(approval.state).toBe("pending");
    if (approval.method !== "item/commandExecution/requestApproval") throw new Error("no approval");
    expect(approval.respond({ decision: "accept" })).toBe(true);
    expect(approval.respond({ decision: "accept" })).toBe(false);
    const result = await harness.waitForTurn(turn.id, from);
    expect(completedCommands(result.notifications)[0]?.aggregatedOutput).toContain("LATE-OK");
  });

  test("turn/interrupt during slow streaming ends the turn interrupted", async () => {
    const harness = await CodexHarness.forTest({
      script: [responsesSlowTextReply(["slow ", "words ", "keep ", "coming ", "forever "], 400)],
    });
    const thread = await harness.startThread();
    const from = harness.log.size;
    const { turn } = await harness.startTurn(thread.id, "talk slowly");
    await harness.log.waitFor((n) => n.method === "item/agentMessage/delta", { from });

    await harness.client.request("turn/interrupt", { threadId: thread.id, turnId: turn.id });
    const result = await harness.waitForTurn(turn.id, from);
    expect(result.turn.status).toBe("interrupted");
    // Bound by events, not the clock: the turn ended before the model's reply did.
    const said = result.notifications
      .filter((n) => n.method === "item/agentMessage/delta")
      .map((n) => (n.params as { delta: string }).delta)
      .join("");
    expect(said).not.toContain("forever");
    // The partial agent message never gets an item/completed: consumers must close it themselves.
    const completedAgent = result.notifications.filter(
      (n) => n.method === "item/completed" && n.params.item.type === "agentMessage",
    );
    expect(completedAgent).toEqual([]);
  });

  test("turn/steer adds input to the running turn", async () => {
    const harness = await CodexHarness.forTest({
      script: [
        responsesSlowTextReply(["first ", "part ", "of ", "answer "], 200),
        responsesTextReply("answer after steer"),
      ],
    });
    const thread = await harness.startThread();
    const from = harness.log.size;
    const { turn } = await harness.startTurn(thread.id, "start talking");
    await harness.log.waitFor((n) => n.method === "item/agentMessage/delta", { from });
    const steered = await harness.client.request("turn/steer", {
      threadId: thread.id,
      expectedTurnId: turn.id,
      input: [{ type: "text", text: "STEER-MARKER extra input", text_elements: [] }],
    });
    expect(steered.turnId).toBe(turn.id);
    const result = await harness.waitForTurn(turn.id, from);
    expect(result.turn.status).toBe("completed");
    const last = harness.server.requests.at(-1);
    if (!last) throw new Error("no model request");
    expect(conversationText(last)).toContain("STEER-MARKER extra input");
  });

  test("HTTP 500 fails the turn with error text; the thread stays usable", async () => {
    const harness = await CodexHarness.forTest({
      script: [httpErrorReply(500, "upstream exploded"), responsesTextReply("RECOVERED")],
    });
    const thread = await harness.startThread();
    const failed = await harness.runTurn(thread.id, "this will fail");
    expect(failed.turn.status).toBe("failed");
    expect(failed.turn.error?.message).toBeTruthy();
    expect(failed.turn.error?.codexErrorInfo).toBe("internalServerError");
    const errorNote = failed.notifications.find((n) => n.method === "error");
    expect(errorNote?.params).toMatchObject({ willRetry: false, turnId: failed.turn.id });

    const next = await harness.runTurn(thread.id, "try again");
    expect(next.turn.status).toBe("completed");
  });

  test("HTTP 400 surfaces the upstream error body as the turn error", async () => {
    const harness = await CodexHarness.forTest({
      script: [httpErrorReply(400, "bad-request-detail")],
    });
    const thread = await harness.startThread();
    const failed = await harness.runTurn(thread.id, "bad");
    expect(failed.turn.status).toBe("failed");
    expect(failed.turn.error?.message).toContain("bad-request-detail");
  });
});
