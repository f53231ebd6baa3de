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

describe("transition tables", () => {
  for (const [entity, schema] of Object.entries(ENUMS) as [TransitionEntity, z.ZodEnum][]) {
    const statuses = schema.options as string[];
    const table: Record<string, readonly string[]> = TRANSITIONS[entity];

    it(`${entity}: the table covers exactly the SPEC status enum`, () => {
      expect(Object.keys(table).sort()).toEqual([...statuses].sort());
      for (const targets of Object.values(table))
        for (const to of targets) expect(statuses).toContain(to);
    });

    it(`${entity}: every pair not in the table is rejected with a typed error`, () => {
      for (const from of statuses) {
        for (const to of statuses) {
          const allowed = table[from]?.includes(to) ?? false;
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
    expect(() => assertTransition("Run", "completed", "running", "run_x")).toThrow(
      InvalidTransitionError,
    );
    try {
      assertTransition("Run", "completed", "running", "run_x");
    } catch (error) {
      expect(error).toMatchObject({
        entity: "Run",
        from: "completed",
        to: "running",
        entityId: "run_x",
      });
      expect((error as Error).message).toBe('Run run_x cannot go from "completed" to "running"');
    }
    expect(() => assertTransition("Run", "queued", "starting")).not.toThrow();
  });
});
