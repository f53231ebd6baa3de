#!/usr/bin/env node
// @ts-check
/**
 * The scripted agent: a deliberately small coding agent, the runtime of the scripted provider
 * (`@skein/adapters-scripted`, issue 27's third provider). It talks to an Anthropic Messages
 * endpoint (`ANTHROPIC_BASE_URL`, in tests the fake model server on 127.0.0.1) and to its client
 * over stdio, one JSON object a line: requests `{id, method, params}` answered `{id, result}` or
 * `{id, error: {message}}`, notifications `{method, params}`, and its own approval requests to
 * the client the same way. Threads live as files under `SCRIPTED_AGENT_HOME`.
 */
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { runAgentTurn } from "./agent-turn.mjs";
import { ModelError } from "./model-stream.mjs";
import { ThreadStore, turnsThrough } from "./thread-store.mjs";

const VERSION = "scripted-agent 1.0.0";
const env = process.env;
const store = new ThreadStore(env.SCRIPTED_AGENT_HOME ?? join(homedir(), ".scripted-agent"));
const model = {
  url: env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com",
  apiKey: env.ANTHROPIC_API_KEY ?? "",
  model: env.SCRIPTED_AGENT_MODEL ?? "claude-sonnet-4-5",
};

/** The running turn of each thread: one at a time. */
const running = new Map();
/** Our own requests to the client, by id, until it answers. */
const asked = new Map();
let askCount = 0;

/** @param {unknown} frame */
function send(frame) {
  process.stdout.write(`${JSON.stringify(frame)}\n`);
}

/** @type {import("./agent-turn.mjs").Peer} */
const peer = {
  notify: (method, params) => send({ method, params }),
  ask(method, params, signal) {
    const id = `agent-${++askCount}`;
    send({ id, method, params });
    return new Promise((resolve) => {
      // A stopped turn asks nothing more: the question is withdrawn, unanswered.
      const withdraw = () => {
        if (!asked.delete(id)) return;
        send({ method: "request/withdrawn", params: { ...params, id } });
        resolve(null);
      };
      signal.addEventListener("abort", withdraw, { once: true });
      asked.set(id, (/** @type {unknown} */ answer) => {
        signal.removeEventListener("abort", withdraw);
        resolve(answer);
      });
    });
  },
};

/** @type {Record<string, (params: any) => Promise<unknown> | unknown>} */
const methods = {
  initialize: () => ({ version: VERSION }),
  "thread/start": async ({ cwd }) => ({ threadId: (await store.create(cwd)).id }),
  "thread/resume": async ({ threadId }) => ({ threadId: (await store.load(threadId)).id }),
  "thread/fork": async ({ threadId, throughTurnId }) => {
    const source = await store.load(threadId);
    const turns = throughTurnId === undefined ? source.turns : turnsThrough(source, throughTurnId);
    return { threadId: (await store.create(source.cwd, turns)).id };
  },
  "thread/rollback": async ({ threadId, throughTurnId }) => {
    if (running.has(threadId)) throw new Error(`a turn is running on ${threadId}`);
    const thread = await store.load(threadId);
    const kept = turnsThrough(thread, throughTurnId);
    const removedTurns = thread.turns.length - kept.length;
    thread.turns = kept;
    await store.save(thread);
    return { removedTurns };
  },
  "turn/start": async (params) => startTurn(params),
  "turn/interrupt": ({ threadId }) => {
    running.get(threadId)?.abort();
    return {};
  },
};

/** @param {{ threadId: string, text: string, context?: string | null, approvals: boolean }} params */
async function startTurn({ threadId, text, context, approvals }) {
  if (running.has(threadId)) throw new Error(`a turn is already running on ${threadId}`);
  const thread = await store.load(threadId);
  // A handoff's context goes ahead of the message, in the same user turn.
  const parts = context ? [{ type: "text", text: context }] : [];
  /** @type {import("./thread-store.mjs").Turn} */
  const turn = {
    id: `turn_${randomUUID()}`,
    messages: [{ role: "user", content: [...parts, { type: "text", text }] }],
  };
  thread.turns.push(turn);
  const controller = new AbortController();
  running.set(threadId, controller);
  const signal = controller.signal;
  runAgentTurn({ thread, turn, approvals, model, peer, signal })
    .then(
      () => ({ status: "completed" }),
      (error) => {
        if (signal.aborted) return { status: "interrupted" };
        // A failed turn leaves no trace in the thread: the next one starts where this one did.
        thread.turns.pop();
        const words = error instanceof Error ? error.message : String(error);
        if (!(error instanceof ModelError))
          return { status: "failed", error: words, httpStatus: null };
        const { status: httpStatus, retryAfter } = error;
        return { status: "failed", error: words, httpStatus, retryAfter };
      },
    )
    .then(async (outcome) => {
      await store.save(thread);
      running.delete(threadId);
      send({ method: "turn/completed", params: { threadId, turnId: turn.id, ...outcome } });
    });
  return { turnId: turn.id };
}

/** @param {any} frame */
async function handle(frame) {
  if (frame.method === undefined) {
    asked.get(frame.id)?.(frame.result ?? null);
    asked.delete(frame.id);
    return;
  }
  const method = methods[frame.method];
  try {
    if (!method) throw new Error(`unknown method ${frame.method}`);
    send({ id: frame.id, result: await method(frame.params ?? {}) });
  } catch (error) {
    send({
      id: frame.id,
      error: { message: error instanceof Error ? error.message : String(error) },
    });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  handle(JSON.parse(line)).catch((error) => process.stderr.write(`${error}\n`));
});
// The client closing stdin is the end of the session.
lines.on("close", () => {
  for (const controller of running.values()) controller.abort();
  setImmediate(() => process.exit(0));
});
