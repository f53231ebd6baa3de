// @ts-check
import { execFile } from "node:child_process";
import { settledBlock, streamMessage } from "./model-stream.mjs";

/**
 * @typedef {import("./thread-store.mjs").Thread} Thread
 * @typedef {import("./thread-store.mjs").Turn} Turn
 * @typedef {import("./model-stream.mjs").Block} Block
 * @typedef {{
 *   notify(method: string, params: Record<string, unknown>): void,
 *   ask(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<any>,
 * }} Peer
 * @typedef {{ url: string, apiKey: string, model: string }} ModelSettings
 * @typedef {{ thread: Thread, turn: Turn, approvals: boolean, model: ModelSettings,
 *   peer: Peer, signal: AbortSignal }} TurnWork
 */

/**
 * One turn of the agent: ask the model, stream its text, run the shell commands it calls
 * (asking first when the thread wants approvals), give it their output, until it stops calling
 * tools. Items are reported as they start and end; an abort ends the open ones `interrupted`.
 * @param {TurnWork} work
 */
export async function runAgentTurn(work) {
  const { thread, turn } = work;
  const notify = tell(work);
  for (let round = 0; ; round++) {
    /** @type {Block[]} */
    const blocks = [];
    const itemId = (/** @type {number} */ index) => `${turn.id}-${round}-${index}`;
    const open = new Set();
    const close = (/** @type {string} */ status) => {
      for (const index of open) {
        const text = blocks[index]?.text ?? "";
        notify("item/completed", { itemId: itemId(index), kind: "text", status, text });
      }
      open.clear();
    };
    let stopReason;
    try {
      stopReason = await streamMessage(
        { ...work.model, messages: conversation(thread), signal: work.signal },
        blocks,
        (index, text) => {
          if (!open.has(index)) {
            open.add(index);
            notify("item/started", { itemId: itemId(index), kind: "text" });
          }
          notify("item/delta", { itemId: itemId(index), text });
        },
      );
    } catch (error) {
      close(work.signal.aborted ? "interrupted" : "failed");
      // What the model had said before the person stopped it stays in the thread.
      const said = blocks.filter((b) => b?.type === "text" && b.text);
      if (work.signal.aborted && said.length > 0) {
        turn.messages.push({ role: "assistant", content: said.map(settledBlock) });
      }
      throw error;
    }
    close("completed");
    const content = blocks.filter(Boolean).map(settledBlock);
    turn.messages.push({ role: "assistant", content });
    const calls = content.filter((b) => b.type === "tool_use");
    if (stopReason !== "tool_use" || calls.length === 0) return;
    const results = [];
    for (const call of calls) {
      // Every call gets its result, even once stopped: the model service refuses a conversation
      // with a tool call left unanswered.
      results.push(
        work.signal.aborted
          ? toolResult(call, "Stopped by the user.", true)
          : await runTool(work, call),
      );
    }
    turn.messages.push({ role: "user", content: results });
    work.signal.throwIfAborted();
  }
}

/**
 * @param {Record<string, any>} call @param {string} content
 */
function toolResult(call, content, isError = false) {
  return { type: "tool_result", tool_use_id: call.id, content, is_error: isError };
}

/**
 * Every notification names its thread and turn: the client routes by them.
 * @param {TurnWork} work
 */
function tell({ peer, thread, turn }) {
  return (/** @type {string} */ method, /** @type {Record<string, unknown>} */ params) =>
    peer.notify(method, { threadId: thread.id, turnId: turn.id, ...params });
}

/** @param {Thread} thread */
function conversation(thread) {
  return thread.turns.flatMap((t) => t.messages);
}

/**
 * @param {TurnWork} work
 * @param {Record<string, any>} call
 */
async function runTool(work, call) {
  const { thread } = work;
  const notify = tell(work);
  const itemId = String(call.id);
  const command = String(call.input?.command ?? "");
  if (call.name !== "Bash") return toolResult(call, `no tool named ${call.name}`, true);
  const item = { itemId, kind: "command", command };
  notify("item/started", { ...item, cwd: thread.cwd });
  if (work.approvals) {
    const question = { threadId: thread.id, itemId, command, cwd: thread.cwd };
    const answer = await work.peer.ask("approval/request", question, work.signal);
    if (work.signal.aborted) {
      notify("item/completed", { ...item, status: "interrupted", output: "" });
      return toolResult(call, "Stopped by the user.", true);
    }
    if (answer?.approved !== true) {
      notify("item/completed", { ...item, status: "declined", output: "" });
      return toolResult(call, "The user declined to run this command.", true);
    }
  }
  const { output, exitCode } = await shell(command, thread.cwd, work.signal);
  const status = work.signal.aborted ? "interrupted" : exitCode === 0 ? "completed" : "failed";
  notify("item/completed", { ...item, status, output, exitCode });
  return toolResult(call, output, exitCode !== 0);
}

/**
 * @param {string} command @param {string} cwd @param {AbortSignal} signal
 * @returns {Promise<{ output: string, exitCode: number }>}
 */
function shell(command, cwd, signal) {
  return new Promise((resolve) => {
    execFile("/bin/sh", ["-c", command], { cwd, signal }, (error, stdout, stderr) => {
      const code = /** @type {{ code?: unknown } | null} */ (error)?.code;
      resolve({
        output: `${stdout}${stderr}`,
        exitCode: typeof code === "number" ? code : error ? 1 : 0,
      });
    });
  });
}
