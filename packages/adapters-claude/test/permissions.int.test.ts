import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { anthropicBashReply, anthropicTextReply, anthropicToolResults } from "@skein/fake-models";
import { PermissionBroker } from "../src/permissions.ts";
import { createHarness, type Harness, runTurn } from "./support/harness.ts";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("canUseTool approvals", () => {
  it("allow runs Bash (its output reaches the model); deny does not; both turns complete", async () => {
    harness = await createHarness();
    const broker = new PermissionBroker();
    const cwd = harness.settings.cwd;
    const allowed = join(cwd, "allowed.txt");
    const denied = join(cwd, "denied.txt");
    // `touch` writes, so Claude Code asks (read-only commands like `echo` are auto-allowed).
    harness.server.enqueue(
      anthropicBashReply(`touch ${allowed} && echo made-it`),
      anthropicTextReply("ran it"),
      anthropicBashReply(`touch ${denied}`),
      anthropicTextReply("did not run it"),
    );
    const session = harness.runtime.startSession({
      ...harness.settings,
      permissions: broker.handler,
    });

    const first = session.send("run a command");
    const request = await broker.nextRequest();
    expect(request.toolName).toBe("Bash");
    expect(request.input.command).toBe(`touch ${allowed} && echo made-it`);
    expect(request.agentId).toBeNull();
    // Answered later, from outside the callback.
    broker.answer(request.requestId, { behavior: "allow" });
    const ran = await runTurn(first);
    expect(ran.outcome.status).toBe("completed");
    expect(existsSync(allowed)).toBe(true);
    const toolResult = ran.messages.find(
      ({ message }) => message.type === "user" && message.parent_tool_use_id === null,
    );
    expect(JSON.stringify(toolResult?.message)).toContain("made-it");
    const afterAllow = harness.server.conversationRequests()[1]!;
    expect(anthropicToolResults(afterAllow)).toEqual([
      { toolUseId: request.toolUseId, text: "made-it", isError: false },
    ]);

    const second = session.send("run another");
    const denial = await broker.nextRequest();
    broker.answer(denial.requestId, { behavior: "deny", message: "not this one" });
    const declined = await runTurn(second);
    expect(declined.outcome.status).toBe("completed");
    expect(existsSync(denied)).toBe(false);
    const afterDeny = harness.server.conversationRequests()[3]!;
    expect(anthropicToolResults(afterDeny).at(-1)).toEqual({
      toolUseId: denial.toolUseId,
      text: "not this one",
      isError: true,
    });

    // The callback and its answer are in the raw log, paired by request id.
    const frames = harness.rawLog.frames.filter((f) => f.jsonRpcId === denial.requestId);
    expect(frames.map((f) => `${f.direction}:${f.messageKind}`)).toEqual([
      "incoming:request",
      "outgoing:response",
    ]);
  });

  it("an interrupt withdraws a pending approval and ends the turn interrupted", async () => {
    harness = await createHarness();
    const broker = new PermissionBroker();
    harness.server.enqueue(anthropicBashReply(`touch ${join(harness.settings.cwd, "never.txt")}`));
    const session = harness.runtime.startSession({
      ...harness.settings,
      permissions: broker.handler,
    });
    const turn = session.send("run a command");
    const request = await broker.nextRequest();
    await session.interrupt();
    expect((await turn.outcome).status).toBe("interrupted");
    expect(request.signal.aborted).toBe(true);
    expect(() => broker.answer(request.requestId, { behavior: "allow" })).toThrow(/withdrawn/);
  });

  it("bypassPermissions runs tools without asking (IS_SANDBOX=1 when running as root)", async () => {
    harness = await createHarness();
    const target = join(harness.settings.cwd, "bypassed.txt");
    harness.server.enqueue(anthropicBashReply(`touch ${target}`), anthropicTextReply("done"));
    const broker = new PermissionBroker();
    const session = harness.runtime.startSession({
      ...harness.settings,
      permissionMode: "bypassPermissions",
      permissions: broker.handler,
    });
    const { outcome } = await runTurn(session.send("go"));
    expect(outcome.error).toBeNull();
    expect(outcome.status).toBe("completed");
    expect(existsSync(target)).toBe(true);
    expect(broker.pending()).toEqual([]);
  });
});
