import { join } from "node:path";
import { createRotatingLog, type RotatingLog } from "@skein/db";
import type { NodeId, RunId, ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { refusal } from "./support/errors.ts";
import { watchRaw } from "./support/raw-stream-check.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { tempDir } from "./support/test-server.ts";

const TOKEN = "raw-frames-token-0123456789abcdef";
let t: ScriptedTestServer;
let rawLog: RotatingLog;
let threadId: ThreadId;
let runId: RunId;

beforeAll(async () => {
  rawLog = createRotatingLog({ dir: join(tempDir(), "raw"), maxFileBytes: 4_096, maxFiles: 2 });
  t = await startScriptedServer({ token: TOKEN, rawLog });
  const { projectId } = await t.client.project.create.mutate({
    name: "raw",
    workspaceRoot: t.workspaceDir,
  });
  ({ threadId } = await t.client.thread.create.mutate({ projectId }));
  ({ runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "hello" }));
  await t.orchestrator.waitForRun(runId);
});
afterAll(async () => {
  await t.close();
  rawLog.close();
});

describe("events.raw", () => {
  it("needs the API token like every procedure, and appends nothing", async () => {
    const head = await t.store.headSequence();
    const anonymous = createSkeinClient({ url: t.server.url });
    expect(await refusal(anonymous.events.raw.query({ threadId, runId }))).toMatchObject({
      code: "UNAUTHORIZED",
      httpStatus: 401,
    });
    const wrong = createSkeinClient({ url: t.server.url, token: `${TOKEN}x` });
    expect((await refusal(wrong.events.raw.query({ threadId, runId }))).code).toBe("UNAUTHORIZED");
    expect(await t.store.headSequence()).toBe(head);
  });

  it("answers a run whose provider logged no frames with none", async () => {
    const view = await t.client.events.raw.query({ threadId, runId });
    expect(view).toEqual({
      threadId,
      runId,
      nodeId: null,
      logged: true,
      frames: [],
      truncated: false,
    });
  });

  it("an unknown thread, run, a run of another thread or a node of another run is NOT_FOUND", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "other",
      workspaceRoot: t.workspaceDir,
    });
    const other = await t.client.thread.create.mutate({ projectId });
    const cases = [
      { threadId: "thr_missing" as ThreadId, runId },
      { threadId, runId: "run_missing" as RunId },
      { threadId: other.threadId, runId },
      { threadId, runId, nodeId: "nod_missing" as NodeId },
    ];
    for (const input of cases) {
      const refused = await refusal(t.client.events.raw.query(input));
      expect(refused).toMatchObject({ code: "NOT_FOUND", domainCode: "not_found" });
    }
  });

  it("malformed ids are BAD_REQUEST with the path of the bad field", async () => {
    const refused = await refusal(t.client.events.raw.query({ threadId, runId: "nope" as RunId }));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.issues?.map((i) => i.path)).toEqual(["runId"]);
  });
});

describe("events.watchRaw", () => {
  it("B8/E18: an ended run without frames gets one empty message, tracked as the start, and the stream ends", async () => {
    const watch = watchRaw(t.client, { threadId, runId });
    await watch.until(() => watch.complete, 10_000, "the stream to end");
    expect(watch.messages).toBe(1);
    expect(watch.ids).toEqual([]);
    expect(watch.lastId).toBe("start");
  });

  it("B8/E18: an unknown run is NOT_FOUND and a cursor that is no frame id BAD_REQUEST", async () => {
    const cases = [
      { input: { threadId, runId: "run_missing" as RunId }, code: "NOT_FOUND" },
      { input: { threadId, runId, lastEventId: "12" }, code: "BAD_REQUEST" },
    ];
    for (const { input, code } of cases) {
      const watch = watchRaw(t.client, input);
      // `until` rethrows the stream's error; a timeout is no TRPCClientError and fails below.
      const error = await watch.until(() => false, 10_000, "a refusal").catch((e: unknown) => e);
      expect((await refusal(Promise.reject(error))).code).toBe(code);
      watch.stop();
    }
  });
});
