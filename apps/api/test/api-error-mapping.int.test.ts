import { ConcurrencyError } from "@skein/db";
import {
  CapabilityUnsupportedError,
  ConflictError,
  InvalidTransitionError,
  ValidationError,
} from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrchestratorCommands } from "@skein/contract";
import { refusal } from "./support/errors.ts";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/** A command side whose steer/rollback/… throw whatever the test put in `next`. */
function throwingOrchestrator(base: OrchestratorCommands, box: { next: unknown }) {
  const fail = async (): Promise<never> => {
    throw box.next;
  };
  return { ...base, steer: fail, rollback: fail, providerStatus: fail };
}

const box: { next: unknown } = { next: null };
let t: TestServer;
const threadId = "thr_x1" as never;

beforeAll(async () => {
  t = await startTestServer({
    orchestrator: async (store, dataDir) =>
      throwingOrchestrator(await createOrchestrator({ store, adapters: {}, dataDir }), box),
  });
});
afterAll(async () => {
  await t.close();
});

describe("domain and store errors map to tRPC codes", () => {
  it.each([
    [new ConflictError("run run_1 already exists"), "CONFLICT", 409, "conflict"],
    [
      new InvalidTransitionError("Run", "completed", "running", "run_1"),
      "CONFLICT",
      409,
      "invalid_transition",
    ],
    [new ConcurrencyError("thread-thr_1", 3, 4), "CONFLICT", 409, null],
    [
      new CapabilityUnsupportedError("claude", "rollback", "thread.rollback"),
      "PRECONDITION_FAILED",
      412,
      "capability_unsupported",
    ],
    [new Error("disk on fire"), "INTERNAL_SERVER_ERROR", 500, null],
  ] as const)("%s → %s", async (error, code, httpStatus, domainCode) => {
    box.next = error;
    const refused = await refusal(t.client.thread.steer.mutate({ threadId, text: "go" }));
    expect(refused).toMatchObject({ code, httpStatus, domainCode });
    if (code !== "INTERNAL_SERVER_ERROR") expect(refused.message).toContain(error.message);
  });

  it("a domain ValidationError keeps its path-qualified issues", async () => {
    box.next = new ValidationError("checkpointId: not in this thread", [
      { path: "checkpointId", message: "not in this thread" },
    ]);
    const refused = await refusal(
      t.client.thread.rollback.mutate({ threadId, checkpointId: "ckp_1" as never }),
    );
    expect(refused).toMatchObject({
      code: "BAD_REQUEST",
      domainCode: "validation",
      issues: [{ path: "checkpointId", message: "not in this thread" }],
    });
  });

  it("queries map the same way", async () => {
    box.next = new CapabilityUnsupportedError("codex", "status", "provider.status");
    const refused = await refusal(t.client.provider.status.query());
    expect(refused.code).toBe("PRECONDITION_FAILED");
  });
});
