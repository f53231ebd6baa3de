import { existsSync } from "node:fs";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import type { RouterOutputs } from "@skein/contract";
import { type ProjectId, type RunId, type ThreadId, threadStreamId } from "@skein/domain";
import {
  createGeminiTestHome,
  type FakeGeminiServer,
  type GeminiTestHome,
  geminiFunctionResponses,
  geminiLatestUserText,
  geminiShellReply,
  geminiSlowTextReply,
  geminiTextReply,
  startFakeGeminiServer,
} from "@skein/fake-models";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { Recorder } from "./support/recorder.ts";
import { startTestServer, type TestServer, workspaceProject } from "./support/test-server.ts";
import { until } from "./support/until.ts";

// Issue 28's acceptance at the API: the real Gemini CLI (ACP) on the fake Gemini API, driven
// only through Skein's tRPC client: its permission requests answered in Skein, its turn
// interrupted, with the model's side checked on the fake server's recorded requests.

type Pending = RouterOutputs["request"]["pending"];
/** A real runtime answering several model calls: on a loaded machine a case takes a while. */
const SLOW = 120_000;

let t: TestServer & { orchestrator: Orchestrator };
let gemini: FakeGeminiServer;
let home: GeminiTestHome;
let projectId: ProjectId;
const unsubscribes: (() => void)[] = [];

beforeAll(async () => {
  gemini = await startFakeGeminiServer();
  home = await createGeminiTestHome({ baseUrl: gemini.url });
  t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({
        store,
        adapters: { gemini: createGeminiAdapter({ env: home.env }) },
        dataDir,
        sessionIdleMs: 0,
      }),
  });
  projectId = await workspaceProject(t, "gemini requests");
}, 60_000);

afterEach(() => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
});

afterAll(async () => {
  await t?.close();
  await gemini?.close();
  await home?.remove();
});

async function geminiThread(runtimeMode: "approval-required" | "full-access") {
  const { threadId } = await t.client.thread.create.mutate({
    projectId,
    provider: "gemini",
    runtimeMode,
  });
  return threadId;
}

/** request.watchPending on one thread, recorded. */
function watchPending(threadId: string): Recorder<Pending> {
  const recorder = new Recorder<Pending>();
  const sub = t.client.request.watchPending.subscribe({ threadId }, recorder.handlers);
  unsubscribes.push(() => sub.unsubscribe());
  return recorder;
}

async function runOf(threadId: string, runId: string) {
  const detail = await t.client.thread.detail.query({ threadId });
  return { detail, run: detail.runs.find((r) => r.id === runId) };
}

/** The function responses Gemini CLI sent to the model for its shell tool, from request `from`. */
function shellResponses(from = 0) {
  return gemini
    .conversationRequests()
    .slice(from)
    .flatMap(geminiFunctionResponses)
    .filter((r) => r.name === "run_shell_command");
}

describe("E15 P5 B18: Gemini CLI's permission requests answered in Skein (real Gemini CLI, API)", () => {
  it(
    "E15 P5 B18: a shell command Gemini asks to run is a pending command request; accepted through the API, it runs and the run completes",
    async () => {
      const file = join(t.workspaceDir, "gemini-accepted.txt");
      const before = gemini.conversationRequests().length;
      gemini.enqueue(
        geminiShellReply(`touch ${file} && echo GEMINI-RAN`),
        geminiTextReply("WROTE-THE-FILE"),
      );
      const threadId = await geminiThread("approval-required");
      const pending = watchPending(threadId);
      await pending.until(() => pending.snapshots.length === 1, 10_000, "the snapshot");
      expect(pending.snapshots[0]!.requests).toEqual([]);

      const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "make it" });
      await pending.until(
        () => pending.events.some((e) => e.type === "RuntimeRequestOpened"),
        60_000,
        "the request",
      );
      // Waiting on the person: nothing ran yet.
      expect(existsSync(file)).toBe(false);
      const listed = await t.client.request.pending.query({ threadId });
      expect(listed.requests).toEqual([
        expect.objectContaining({ kind: "command", status: "pending", answerable: true }),
      ]);
      const request = listed.requests[0]!;
      expect(JSON.stringify(request)).toContain("GEMINI-RAN");

      await t.client.request.respond.mutate({ requestId: request.id, decision: "accept" });
      await t.orchestrator.waitForRun(runId);

      expect(existsSync(file)).toBe(true);
      const { detail, run } = await runOf(threadId, runId);
      expect(run?.status).toBe("completed");
      await pending.until(
        () => pending.events.some((e) => e.type === "RuntimeRequestResolved"),
        10_000,
        "the answer",
      );
      expect((await t.client.request.pending.query({ threadId })).requests).toEqual([]);
      expect(detail.pendingRequests).toEqual([]);
      // The command's output went back to the model, which then wrote its answer.
      expect(shellResponses(before).some((r) => r.text.includes("GEMINI-RAN"))).toBe(true);
      expect(JSON.stringify(detail.turnItems)).toContain("WROTE-THE-FILE");
      // Answered once: a second answer is refused and changes nothing.
      await expect(
        t.client.request.respond.mutate({ requestId: request.id, decision: "accept" }),
      ).rejects.toThrow();
    },
    SLOW,
  );

  it(
    "E15 P5 B18: declined through the API, the command does not run; the refusal reaches Gemini and the run ends as Gemini ends it",
    async () => {
      const file = join(t.workspaceDir, "gemini-declined.txt");
      gemini.enqueue(
        geminiShellReply(`touch ${file} && echo GEMINI-SKIPPED`),
        geminiTextReply("DID-NOT-RUN-IT"),
      );
      const threadId = await geminiThread("approval-required");
      const pending = watchPending(threadId);
      const before = gemini.conversationRequests().length;
      const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "make it" });
      await pending.until(
        () => pending.events.some((e) => e.type === "RuntimeRequestOpened"),
        60_000,
        "the request",
      );
      const [request] = (await t.client.request.pending.query({ threadId })).requests;
      await t.client.request.respond.mutate({ requestId: request!.id, decision: "decline" });
      await t.orchestrator.waitForRun(runId);
      const { detail, run } = await runOf(threadId, runId);
      expect(existsSync(file)).toBe(false);
      // Gemini CLI hands the refusal to the model as the tool's result and goes on to answer.
      expect(shellResponses(before).map((r) => r.text)).toEqual([
        expect.stringMatching(/canceled by the user/),
      ]);
      expect(run?.status).toBe("completed");
      const rows = detail.turnItems.map((i) => [i.type, i.status]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ["command_execution", "declined"],
          ["approval_request", "declined"],
        ]),
      );
      expect(JSON.stringify(detail.turnItems)).toContain("DID-NOT-RUN-IT");
      await pending.until(
        () => pending.events.some((e) => e.type === "RuntimeRequestResolved"),
        10_000,
        "the answer",
      );
      expect((await t.client.request.pending.query({ threadId })).requests).toEqual([]);
    },
    SLOW,
  );
});

describe("E3 E4 B18: a Gemini turn interrupted through the API (real Gemini CLI)", () => {
  it(
    "E3 E4 B18: a slow streaming turn interrupted mid-stream ends interrupted; the next message on the same thread runs normally",
    async () => {
      const full = "tick ".repeat(60);
      const threadId = await geminiThread("full-access");
      const before = gemini.conversationRequests().length;
      // 300 one-character chunks 100 ms apart: far longer than the case waits.
      gemini.enqueue(geminiSlowTextReply(full, 100));
      const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "stream" });
      await until(
        () => t.store.readStream(threadStreamId(threadId)),
        (events) => events.some((e) => e.type === "ItemDeltaAppended"),
        60_000,
      );
      await t.client.thread.interrupt.mutate({ threadId });
      await t.orchestrator.waitForRun(runId);

      const first = await runOf(threadId, runId);
      expect(first.run?.status).toBe("interrupted");
      const state = await t.orchestrator.repository.thread(threadId as ThreadId);
      const attempts = (state.attemptIdsByRun.get(runId as RunId) ?? []).map(
        (id) => state.attempts.get(id)?.status,
      );
      expect(attempts).toEqual(["interrupted"]);
      expect(JSON.stringify(first.detail.turnItems)).not.toContain(full.trim());

      gemini.enqueue(geminiTextReply("AFTER-INTERRUPT"));
      const next = await t.client.thread.sendMessage.mutate({ threadId, text: "carry on" });
      await t.orchestrator.waitForRun(next.runId);
      const second = await runOf(threadId, next.runId);
      expect(second.run?.status).toBe("completed");
      expect(second.run?.providerThreadId).toBe(first.run?.providerThreadId);
      expect(JSON.stringify(second.detail.turnItems)).toContain("AFTER-INTERRUPT");
      // Gemini got the new message on its own session, after the interrupted one.
      const sent = gemini.conversationRequests().slice(before);
      expect(sent).toHaveLength(2);
      expect(geminiLatestUserText(sent[1]!)).toContain("carry on");
    },
    SLOW,
  );
});
