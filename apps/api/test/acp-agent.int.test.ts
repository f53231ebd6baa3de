import { existsSync } from "node:fs";
import path from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { type ThreadId, threadStreamId } from "@skein/domain";
import {
  anthropicTextReply,
  execCommandReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AcpEditor, agentText, startAcpEditor } from "./support/acp-editor.ts";
import {
  type RealProvidersServer,
  startRealProvidersServer,
} from "./support/real-providers-server.ts";
import { until } from "./support/until.ts";

// B19: an editor on the ACP SDK's client side uses a Skein thread as its agent through
// `skein acp`, with the real Codex (and Claude, after a switch) running the thread on fake models.

/** Real runtimes several turns deep: on a loaded machine a case takes well past the default. */
const SLOW = 150_000;
const TOKEN = "acp-token-0123456789abcdefgh";
const EDITOR = "test-editor";
let t: RealProvidersServer;
let editor: AcpEditor | null = null;

beforeAll(async () => {
  t = await startRealProvidersServer({ token: TOKEN });
});
afterAll(async () => {
  await editor?.kill();
  await t?.close();
});

async function connect(): Promise<AcpEditor> {
  const next = startAcpEditor({
    url: t.server.url,
    token: TOKEN,
    name: EDITOR,
    env: { SKEIN_ACP_PROVIDER: "codex" },
  });
  const init = await next.connection.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: EDITOR, version: "1.0.0" },
  });
  expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
  return next;
}

/** Updates of `sessionId` received from `from` on. */
const since = (e: AcpEditor, sessionId: string, from: number): SessionNotification[] =>
  e.updates.slice(from).filter((n) => n.sessionId === sessionId);
const kinds = (updates: readonly SessionNotification[]) =>
  updates.map((n) => n.update.sessionUpdate);

async function prompt(e: AcpEditor, sessionId: string, text: string) {
  const from = e.updates.length;
  const { stopReason } = await e.connection.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return { stopReason, updates: since(e, sessionId, from) };
}

describe("B19: skein acp, a Skein thread as an editor's agent", () => {
  it(
    "B19: session, streamed prompt with a permission answered, cancel, /fork, load after a restart, /bring-back, /switch",
    async () => {
      editor = await connect();
      const session = await editor.connection.agent.request("session/new", {
        cwd: t.workspaceDir,
        mcpServers: [],
      });
      const sessionId = session.sessionId as ThreadId;
      expect(session.modes).toMatchObject({
        currentModeId: "codex",
        availableModes: [{ id: "codex" }, { id: "claude" }],
      });
      const [created] = await t.store.readStream(`thread-${sessionId}`);
      expect(created).toMatchObject({
        type: "ThreadCreated",
        data: {
          thread: { createdBy: "agent", agentName: EDITOR, runtimeMode: "approval-required" },
        },
      });
      const commands = await until(
        async () => editor!.updates.map((n) => n.update),
        (list) => list.some((u) => u.sessionUpdate === "available_commands_update"),
      );
      const offered = commands.find((u) => u.sessionUpdate === "available_commands_update");
      expect(offered).toMatchObject({
        availableCommands: [{ name: "fork" }, { name: "switch" }, { name: "bring-back" }],
      });

      // A prompt: the command needs the editor's permission; the answer streams back in chunks.
      t.openai.enqueue(
        execCommandReply("echo from-acp > acp.txt"),
        // Paced, so Skein records the words as they come rather than as one delta.
        responsesTextReply("wrote acp.txt for you", {
          chunks: ["wrote ", "acp.txt ", "for you"],
          eventDelayMs: 150,
        }),
      );
      const first = await prompt(editor, sessionId, "create acp.txt");
      expect(first.stopReason).toBe("end_turn");
      expect(editor.permissions).toEqual([
        expect.objectContaining({
          sessionId,
          toolCall: expect.objectContaining({ kind: "execute" }),
          options: expect.arrayContaining([expect.objectContaining({ kind: "allow_once" })]),
        }),
      ]);
      expect(existsSync(path.join(t.workspaceDir, "acp.txt"))).toBe(true);
      expect(kinds(first.updates)).toEqual(
        expect.arrayContaining(["tool_call", "tool_call_update", "agent_message_chunk"]),
      );
      expect(agentText(first.updates)).toBe("wrote acp.txt for you");
      const chunks = first.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk");
      expect(chunks.length).toBeGreaterThan(1);
      const ended = first.updates.find((n) => n.update.sessionUpdate === "tool_call_update");
      expect(ended?.update).toMatchObject({ status: "completed" });

      // Cancel: the run is interrupted mid-stream and the prompt ends `cancelled`.
      t.openai.enqueue(responsesSlowTextReply(["one ", "two ", "three ", "four ", "five"], 400));
      const from = editor.updates.length;
      const slow = editor.connection.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "count slowly" }],
      });
      await until(
        async () => since(editor!, sessionId, from),
        (list) => list.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
        30_000,
      );
      await editor.connection.agent.notify("session/cancel", { sessionId });
      expect((await slow).stopReason).toBe("cancelled");
      const afterCancel = await t.client.thread.detail.query({ threadId: sessionId });
      expect(afterCancel.runs.map((r) => r.status)).toEqual(["completed", "interrupted"]);

      // /fork: a Skein-only action; the fork is the editor's.
      const forked = await prompt(editor, sessionId, "/fork Side quest");
      expect(forked.stopReason).toBe("end_turn");
      const shells = await t.client.thread.shells.query({ query: "Side quest" });
      const fork = shells.threads[0]!;
      expect(fork).toMatchObject({
        createdBy: "agent",
        agentName: EDITOR,
        lineage: { parentThreadId: sessionId, relationshipToParent: "fork" },
      });
      expect(agentText(forked.updates)).toContain(fork.id);

      // The agent process dies; a new one reloads the session and replays the conversation.
      await editor.kill();
      editor = await connect();
      const loadFrom = editor.updates.length;
      const loaded = await editor.connection.agent.request("session/load", {
        sessionId,
        cwd: t.workspaceDir,
        mcpServers: [],
      });
      expect(loaded).toMatchObject({ modes: { currentModeId: "codex" } });
      const history = since(editor, sessionId, loadFrom);
      expect(kinds(history)).toEqual(
        expect.arrayContaining(["user_message_chunk", "tool_call", "agent_message_chunk"]),
      );
      const userTexts = history.flatMap((n) =>
        n.update.sessionUpdate === "user_message_chunk" && n.update.content.type === "text"
          ? [n.update.content.text]
          : [],
      );
      expect(userTexts).toEqual(["create acp.txt", "count slowly"]);
      expect(agentText(history)).toContain("wrote acp.txt for you");

      t.openai.enqueue(responsesTextReply("still here"));
      const again = await prompt(editor, sessionId, "are you there?");
      expect(again).toMatchObject({ stopReason: "end_turn" });
      expect(agentText(again.updates)).toBe("still here");

      // The fork is a session too; its work comes back with /bring-back.
      await editor.connection.agent.request("session/load", {
        sessionId: fork.id,
        cwd: t.workspaceDir,
        mcpServers: [],
      });
      t.openai.enqueue(responsesTextReply("side quest done"));
      expect(await prompt(editor, fork.id, "do the side quest")).toMatchObject({
        stopReason: "end_turn",
      });
      t.openai.enqueue(responsesTextReply("took the side quest in"));
      const back = await prompt(editor, sessionId, `/bring-back ${fork.id} take it in`);
      expect(back.stopReason).toBe("end_turn");
      expect(agentText(back.updates)).toBe("took the side quest in");
      const merged = await t.client.thread.detail.query({ threadId: sessionId });
      expect(merged.transfers).toContainEqual(
        expect.objectContaining({
          type: "merge_back",
          sourceThreadId: fork.id,
          status: "consumed",
        }),
      );

      // /switch: the thread continues on Claude (with a handoff); the mode follows.
      const switched = await prompt(editor, sessionId, "/switch claude");
      expect(switched.updates.map((n) => n.update)).toContainEqual({
        sessionUpdate: "current_mode_update",
        currentModeId: "claude",
      });
      t.anthropic.answerPrompt("now on claude", anthropicTextReply("claude took over"));
      const onClaude = await prompt(editor, sessionId, "now on claude");
      expect(agentText(onClaude.updates)).toBe("claude took over");
      const detail = await t.client.thread.detail.query({ threadId: sessionId });
      expect(detail.runs.map((r) => r.provider)).toEqual([
        "codex",
        "codex",
        "codex",
        "codex",
        "claude",
      ]);
    },
    SLOW,
  );

  it("B19: a prompt to an unknown session and a bad mode are refused in words; nothing is appended", async () => {
    editor ??= await connect();
    const { sessionId } = await editor.connection.agent.request("session/new", {
      cwd: t.workspaceDir,
      mcpServers: [],
    });
    const before = await t.store.headSequence();
    await expect(
      editor.connection.agent.request("session/set_mode", { sessionId, modeId: "gemini" }),
    ).rejects.toThrow(/no mode gemini/);
    await expect(prompt(editor, sessionId, "/switch nobody")).rejects.toThrow(
      /\/switch takes one of codex, claude/,
    );
    await expect(
      editor.connection.agent.request("session/prompt", {
        sessionId: "thr_unknown",
        prompt: [{ type: "text", text: "hi" }],
      }),
    ).rejects.toThrow(/not found|thr_unknown/i);
    await expect(
      editor.connection.agent.request("session/load", {
        sessionId: "thr_missing",
        cwd: t.workspaceDir,
        mcpServers: [],
      }),
    ).rejects.toThrow(/thread thr_missing not found/);
    // Only an earlier run's background checkpoint (of another thread) may land meanwhile.
    const since = await t.store.readAll(before);
    expect(
      since.filter(
        (e) => !(e.type === "CheckpointRecorded" && e.streamId !== threadStreamId(sessionId)),
      ),
    ).toEqual([]);
  });
});
