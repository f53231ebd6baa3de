import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { CodexHarness } from "./support/codex-harness.ts";
import {
  applyPatchReply,
  functionCallOutputs,
  functionCallReply,
  inputItems,
  responsesTextReply,
} from "@skein/fake-models";

describe("app-owned tools and file changes (real binary)", () => {
  test("a dynamic tool call reaches the client as item/tool/call and its answer reaches the model", async () => {
    const harness = await CodexHarness.forTest({
      script: [
        functionCallReply("skein_delegate", { task: "summarize" }, "call_delegate"),
        responsesTextReply("parent continues"),
      ],
    });
    harness.handleServerRequests((request) => {
      if (request.method === "item/tool/call") {
        request.respond({
          success: true,
          contentItems: [{ type: "inputText", text: "CHILD-ANSWER" }],
        });
      }
    });
    const thread = await harness.startThread({
      dynamicTools: [
        {
          type: "function",
          name: "skein_delegate",
          description: "Delegate a task to another agent",
          inputSchema: { type: "object", properties: { task: { type: "string" } } },
        },
      ],
    });
    const result = await harness.runTurn(thread.id, "delegate please");
    expect(result.turn.status).toBe("completed");

    const first = harness.server.requests[0];
    const toolNames = (first?.tools as Array<{ name?: string }> | undefined)?.map((t) => t.name);
    expect(toolNames).toContain("skein_delegate");
    const [call] = harness.serverRequests;
    expect(call?.method).toBe("item/tool/call");
    if (call?.method !== "item/tool/call") return;
    expect(call.params).toMatchObject({
      callId: "call_delegate",
      tool: "skein_delegate",
      arguments: { task: "summarize" },
      turnId: result.turn.id,
    });
    const completed = result.notifications.find(
      (n) => n.method === "item/completed" && n.params.item.type === "dynamicToolCall",
    );
    expect(completed?.params).toMatchObject({ item: { status: "completed", success: true } });
    const followUp = harness.server.requests[1];
    if (!followUp) throw new Error("no follow-up model request");
    expect(functionCallOutputs(followUp)).toEqual([
      { callId: "call_delegate", output: "CHILD-ANSWER" },
    ]);
  });

  test("dynamic tools given on thread/start survive thread/resume in a new process and thread/fork", async () => {
    const harness = await CodexHarness.forTest();
    const { id } = await harness.startThread({
      dynamicTools: [
        {
          type: "function",
          name: "skein_delegate",
          description: "Delegate a task to another agent",
          inputSchema: { type: "object", properties: { task: { type: "string" } } },
        },
      ],
    });
    await harness.runTurn(id, "first");
    // thread/resume and thread/fork take no dynamicTools: the rollout has to carry them.
    await harness.restart();
    await harness.client.request("thread/resume", { threadId: id, excludeTurns: true });
    await harness.runTurn(id, "after resume");
    const { thread: fork } = await harness.client.request("thread/fork", { threadId: id });
    await harness.runTurn(fork.id, "on the fork");
    const toolNames = harness.server.requests.map((body) =>
      ((body.tools as Array<{ name?: string }> | undefined) ?? []).map((t) => t.name),
    );
    expect(toolNames).toHaveLength(3);
    for (const names of toolNames) expect(names).toContain("skein_delegate");
  });

  test("apply_patch asks item/fileChange/requestApproval and reports the diff", async () => {
    const patch = "*** Begin Patch\n*** Add File: notes.txt\n+patched line\n*** End Patch\n";
    const harness = await CodexHarness.forTest({
      script: [applyPatchReply(patch, "call_patch"), responsesTextReply("patched")],
    });
    harness.handleServerRequests((request) => {
      if (request.method === "item/fileChange/requestApproval")
        request.respond({ decision: "accept" });
    });
    const thread = await harness.startThread({
      approvalPolicy: "untrusted",
      sandbox: "workspace-write",
    });
    const result = await harness.runTurn(thread.id, "edit a file");

    expect(result.turn.status).toBe("completed");
    expect(harness.serverRequests.map((r) => r.method)).toEqual([
      "item/fileChange/requestApproval",
    ]);
    const started = result.notifications.find(
      (n) => n.method === "item/started" && n.params.item.type === "fileChange",
    );
    expect(started?.params).toMatchObject({
      item: {
        id: "call_patch",
        changes: [
          {
            path: path.join(harness.workdir, "notes.txt"),
            kind: { type: "add" },
            diff: "patched line\n",
          },
        ],
      },
    });
    const diff = result.notifications.find((n) => n.method === "turn/diff/updated");
    expect(diff?.params).toMatchObject({ diff: expect.stringContaining("+patched line") });
    expect(readFileSync(path.join(harness.workdir, "notes.txt"), "utf8")).toBe("patched line\n");
    const followUp = harness.server.requests[1];
    if (!followUp) throw new Error("no follow-up model request");
    expect(inputItems(followUp, "custom_tool_call_output")[0]?.output).toContain("Success");
  });
});
