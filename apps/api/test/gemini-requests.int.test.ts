import { existsSync } from "node:fs";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import type { RouterOutputs } from "@skein/contract";
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

// Issue 28's acceptance at the API: the real Gemini CLI (ACP) on the fake Gemini API, driven
// only through Skein's tRPC client: its permission requests answered in Skein, its turn
// interrupted, with the model's side checked on the fake server's recorded requests.

type Pending = RouterOutputs["request"]["pending"];
/** A real runtime answering several model calls: on a loaded machine a case takes a while. */
const SLOW = 120_000;

let t: TestServer & { orchestrator: Orchestrator };
let gemini: FakeGeminiServer;
let home: GeminiTestHome;
let projectId: string;
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
    projectId: projectId as never,
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

/** The function responses Gemini CLI sent back to the model for its shell tool. */
function shellResponses() {
  return gemini
    .conversationRequests()
    .flatMap(geminiFunctionResponses)
    .filter((r) => r.name === "run_shell_command");
}

describe("E15 P5 B18: Gemini CLI's permission requests answered in Skein (real Gemini CLI, API)", () => {
  it(
    "E15 P5 B18: a shell command Gemini asks to run is a pending command request; accepted through the API, it runs and the run completes",
    async () => {
      const file = join(t.workspaceDir, "gemini-accepted.txt");
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
      expect(shellResponses().some((r) => r.text.includes("GEMINI-RAN"))).toBe(true);
      expect(JSON.stringify(detail.turnItems)).toContain("WROTE-THE-FILE");
      // Answered once: a second answer is refused and changes nothing.
      await expect(
        t.client.request.respond.mutate({ requestId: request.id, decision: "accept" }),
      ).rejects.toThrow();
    },
    SLOW,
  );
});
