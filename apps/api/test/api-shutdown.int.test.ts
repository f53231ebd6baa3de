import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "@skein/contract";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { Recorder } from "./support/recorder.ts";
import { startTestServer } from "./support/test-server.ts";

describe("graceful shutdown (server.close)", () => {
  it("lets an in-flight call finish, cuts SSE streams without ending them, then closes the store", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const t = await startTestServer({
      orchestrator: async (store, dataDir) => {
        const real = await createOrchestrator({ store, adapters: {}, dataDir });
        return {
          ...real,
          // A command still running when shutdown starts.
          createProject: async (input: Parameters<typeof real.createProject>[0]) => {
            entered();
            await gate;
            return real.createProject(input);
          },
        };
      },
    });
    const recorder = new Recorder<RouterOutputs["thread"]["shells"]>();
    const sub = t.client.thread.watchShells.subscribe(undefined, recorder.handlers);
    await recorder.until(() => recorder.snapshots.length === 1);

    const inFlight = t.client.project.create.mutate({
      name: "late",
      workspaceRoot: t.workspaceDir,
    });
    // In flight means the server has it (a fixed wait is too short on a loaded machine).
    await inside;
    const closing = t.server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const receipt = await inFlight;
    await closing;
    expect(receipt.sequence).toBe(1);
    // The stream was cut, not finished: the client is reconnecting, not told the stream ended.
    expect(recorder.errors).toEqual([]);
    await expect(fetch(`${t.server.url}/healthz`)).rejects.toThrow();
    await expect(t.store.headSequence()).rejects.toThrow(/closed/);
    sub.unsubscribe();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });
});
