import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CheckpointStatus } from "./entities/checkpoint.ts";
import { ContextHandoffStatus } from "./entities/context-handoff.ts";
import { ContextTransferStatus } from "./entities/context-transfer.ts";
import { ExecutionNodeStatus } from "./entities/execution-node.ts";
import { PlanStatus } from "./entities/plan-artifact.ts";
import { ProviderSessionStatus } from "./entities/provider-session.ts";
import { ProviderThreadStatus } from "./entities/provider-thread.ts";
import { ProviderTurnStatus } from "./entities/provider-turn.ts";
import { RunStatus } from "./entities/run.ts";
import { RunAttemptStatus } from "./entities/run-attempt.ts";
import { RuntimeRequestStatus } from "./entities/runtime-request.ts";
import { InvalidTransitionError } from "./errors.ts";
import {
  assertTransition,
  canTransition,
  checkTransition,
  TRANSITIONS,
  type TransitionEntity,
} from "./transitions.ts";

const ENUMS: Record<TransitionEntity, z.ZodEnum> = {
  Run: RunStatus,
  RunAttempt: RunAttemptStatus,
  ExecutionNode: ExecutionNodeStatus,
  ContextTransfer: ContextTransferStatus,
  ContextHandoff: ContextHandoffStatus,
  ProviderSession: ProviderSessionStatus,
  ProviderThread: ProviderThreadStatus,
  ProviderTurn: ProviderTurnStatus,
  RuntimeRequest: RuntimeRequestStatus,
  Checkpoint: CheckpointStatus,
  PlanArtifact: PlanStatus,
};

/**
 * The allowed changes, written out here rather than read from the production table (a test that
 * reads its expectations from the code under test cannot fail). `from → to to …`; a status with
 * no row is final.
 */
const EXPECTED: Record<TransitionEntity, readonly string[]> = {
  Run: [
    "queued → starting cancelled failed",
    "starting → running interrupted failed",
    "running → waiting completed interrupted failed",
    "waiting → running completed interrupted failed",
    "completed → rolled_back",
    "interrupted → rolled_back queued",
    "failed → rolled_back queued",
  ],
  RunAttempt: [
    "pending → running interrupted failed cancelled superseded",
    "running → completed interrupted failed superseded",
  ],
  ExecutionNode: [
    "pending → running waiting completed interrupted failed cancelled",
    "running → waiting completed interrupted failed cancelled",
    "waiting → running completed interrupted failed cancelled",
    "completed → rolled_back",
    "interrupted → rolled_back",
    "failed → rolled_back",
  ],
  ContextTransfer: [
    "pending → resolved_native resolved_portable failed superseded",
    "resolved_native → resolved_portable consumed failed superseded",
    "resolved_portable → consumed failed superseded",
  ],
  ContextHandoff: [
    "pending → ready failed superseded",
    "ready → superseded",
    "failed → superseded",
  ],
  ProviderSession: [
    "starting → ready stopped error",
    "ready → running waiting stopped error",
    "running → ready waiting stopped error",
    "waiting → ready running stopped error",
    "stopped → starting",
    "error → starting stopped",
  ],
  ProviderThread: [
    "not_loaded → idle active archived closed error",
    "idle → not_loaded active archived closed error",
    "active → idle not_loaded closed error",
    "archived → not_loaded idle closed",
    "error → not_loaded idle closed",
  ],
  ProviderTurn: [
    "pending → running interrupted failed cancelled",
    "running → completed interrupted failed cancelled",
  ],
  RuntimeRequest: ["pending → resolved expired cancelled"],
  Checkpoint: ["ready → missing error stale", "stale → missing"],
  PlanArtifact: [
    "draft → active completed superseded",
    "active → accepted completed superseded",
    "completed → superseded",
  ],
};

function expectedTargets(entity: TransitionEntity, from: string): string[] {
  const row = EXPECTED[entity].find((r) => r.startsWith(`${from} → `));
  return row ? row.slice(from.length + 3).split(" ") : [];
}

describe("transition tables", () => {
  for (const [entity, schema] of Object.entries(ENUMS) as [TransitionEntity, z.ZodEnum][]) {
    const statuses = schema.options as string[];
    const table: Record<string, readonly string[]> = TRANSITIONS[entity];

    it(`${entity}: the table covers exactly the SPEC status enum`, () => {
      expect(Object.keys(table).sort()).toEqual([...statuses].sort());
      for (const targets of Object.values(table))
        for (const to of targets) expect(statuses).toContain(to);
    });

    it(`${entity}: exactly the written-out changes are allowed; the rest fail with a typed error`, () => {
      for (const row of EXPECTED[entity]) expect(statuses).toContain(row.split(" → ")[0]);
      for (const from of statuses) {
        for (const to of statuses) {
          const allowed = expectedTargets(entity, from).includes(to);
          const check = canTransition as (e: TransitionEntity, f: string, t: string) => boolean;
          expect(check(entity, from, to), `${from} → ${to}`).toBe(allowed);
          const error = (
            checkTransition as (
              e: TransitionEntity,
              f: string,
              t: string,
            ) => InvalidTransitionError | null
          )(entity, from, to);
          if (allowed) expect(error).toBeNull();
          else expect(error).toMatchObject({ code: "invalid_transition", entity, from, to });
        }
      }
    });
  }

  it("documented flows", () => {
    expect(canTransition("Run", "queued", "starting")).toBe(true);
    expect(canTransition("Run", "running", "waiting")).toBe(true);
    expect(canTransition("Run", "waiting", "running")).toBe(true);
    expect(canTransition("Run", "completed", "rolled_back")).toBe(true);
    expect(canTransition("Run", "queued", "running")).toBe(false);
    expect(canTransition("ContextTransfer", "resolved_native", "resolved_portable")).toBe(true);
    expect(canTransition("ContextTransfer", "resolved_portable", "resolved_native")).toBe(false);
    expect(canTransition("ContextTransfer", "pending", "consumed")).toBe(false);
  });

  it("assertTransition throws InvalidTransitionError with entity, from and to", () => {
    let thrown: unknown = null;
    try {
      assertTransition("Run", "completed", "running", "run_x");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidTransitionError);
    expect(thrown).toMatchObject({
      entity: "Run",
      from: "completed",
      to: "running",
      entityId: "run_x",
      message: 'Run run_x cannot go from "completed" to "running"',
    });
    expect(() => assertTransition("Run", "queued", "starting")).not.toThrow();
  });
});
