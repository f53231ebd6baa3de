import {
  ConflictError,
  NotFoundError,
  type ProjectId,
  type ThreadId,
  ValidationError,
} from "@skein/domain";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import {
  appRouter,
  type CallerAuth,
  createCallerFactory,
  type SkeinServices,
} from "../src/index.ts";
import type {
  SkeinCommands,
  SkeinPastReads,
  SkeinReads,
  SkeinWatches,
} from "../src/ports/services.ts";

// The router alone, against fake ports: no apps/api, no store, no HTTP. What it proves is the
// seam itself: each procedure reaches its host only through SkeinServices, and the contract's
// own rules (auth, error mapping, instance-only calls) hold whatever the host is.

/** A port whose methods are the given fakes; any other method fails the test by name. */
function port<T extends object>(fakes: Partial<T>): T {
  return new Proxy(fakes, {
    get(target, name) {
      const fake = Reflect.get(target, name);
      if (fake !== undefined) return fake;
      return () => {
        throw new Error(`${String(name)} was not expected`);
      };
    },
  }) as T;
}

type Fakes = {
  commands?: Partial<SkeinCommands>;
  reads?: Partial<SkeinReads>;
  pastReads?: Partial<SkeinPastReads>;
  watches?: Partial<SkeinWatches>;
  assertUsable?: (workspaceRoot: string) => Promise<string | undefined>;
  mapError?: SkeinServices["mapError"];
};

function services(fakes: Fakes = {}): SkeinServices {
  return {
    version: "9.9.9-test",
    commands: port(fakes.commands ?? {}),
    reads: port(fakes.reads ?? {}),
    pastReads: port(fakes.pastReads ?? {}),
    watches: port(fakes.watches ?? {}),
    workspaces: { assertUsable: fakes.assertUsable ?? (async () => undefined) },
    mapError: fakes.mapError ?? (() => null),
  };
}

const OPEN: CallerAuth = { required: false, authenticated: true };
const createCaller = createCallerFactory(appRouter);
const caller = (fakes: Fakes = {}, auth: CallerAuth = OPEN, forwardedBy: string | null = null) =>
  createCaller({ services: services(fakes), auth, forwardedBy });

async function refusal(call: Promise<unknown>): Promise<TRPCError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

const THREAD = "thr_01JB9X2V4N0000000000000000" as ThreadId;
const PROJECT = "prj_01JB9X2V4N0000000000000000" as ProjectId;

describe("the router against its ports", () => {
  it("health reports the host's version and head through the ports", async () => {
    const health = await caller({ reads: { headSequence: async () => 42 } }).health();
    expect(health).toEqual({ ok: true, version: "9.9.9-test", sequence: 42 });
  });

  it("project.create checks the folder before the command, and not at all when it is refused", async () => {
    const calls: string[] = [];
    const fakes: Fakes = {
      assertUsable: async (root) => {
        calls.push(`check ${root}`);
        if (root === "/nope") throw new ValidationError("workspaceRoot: /nope does not exist");
        return undefined;
      },
      commands: {
        createProject: async (input) => {
          calls.push(`create ${input.name}`);
          return { projectId: PROJECT, sequence: 7 };
        },
      },
    };
    const made = await caller(fakes).project.create({ name: "p", workspaceRoot: "/work/p" });
    expect(made).toEqual({ projectId: PROJECT, sequence: 7 });
    const refused = await refusal(
      caller(fakes).project.create({ name: "q", workspaceRoot: "/nope" }),
    );
    expect(refused.code).toBe("BAD_REQUEST");
    expect(calls).toEqual(["check /work/p", "create p", "check /nope"]);
  });

  it("thread reads go to the head or to the past reads by atSequence", async () => {
    const asked: string[] = [];
    const page = { snapshotSequence: 0, threads: [], nextCursor: null };
    const fakes: Fakes = {
      reads: {
        shells: async () => {
          asked.push("head");
          return page;
        },
      },
      pastReads: {
        shells: async (atSequence) => {
          asked.push(`past ${atSequence}`);
          return { ...page, snapshotSequence: atSequence };
        },
      },
    };
    await caller(fakes).thread.shells();
    expect((await caller(fakes).thread.shells({ atSequence: 5 })).snapshotSequence).toBe(5);
    expect(asked).toEqual(["head", "past 5"]);
  });

  it("domain errors become their tRPC codes without the host", async () => {
    const fakes: Fakes = {
      reads: { projectExists: async () => false },
      commands: {
        archive: async () => {
          throw new ConflictError("thread is busy");
        },
      },
    };
    const unknown = await refusal(caller(fakes).thread.create({ projectId: PROJECT }));
    expect(unknown.code).toBe("NOT_FOUND");
    expect(unknown.cause).toBeInstanceOf(NotFoundError);
    const busy = await refusal(caller(fakes).thread.archive({ threadId: THREAD }));
    expect(busy.code).toBe("CONFLICT");
  });

  it("the host's own failures are mapped by its mapError, anything else stays internal", async () => {
    class StoreGone extends Error {}
    const fakes: Fakes = {
      commands: {
        unarchive: async () => {
          throw new StoreGone("closing");
        },
        promote: async () => {
          throw new Error("disk on fire");
        },
      },
      mapError: (error) =>
        error instanceof StoreGone
          ? new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "shutting down", cause: error })
          : null,
    };
    const gone = await refusal(caller(fakes).thread.unarchive({ threadId: THREAD }));
    expect(gone.code).toBe("SERVICE_UNAVAILABLE");
    const fire = await refusal(caller(fakes).thread.promote({ threadId: THREAD }));
    expect(fire.code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("with a token configured, an unauthenticated call is refused before any port is asked", async () => {
    let asked = false;
    const fakes: Fakes = {
      reads: {
        projects: async () => {
          asked = true;
          return { snapshotSequence: 0, projects: [] };
        },
      },
    };
    const locked = await refusal(
      caller(fakes, { required: true, authenticated: false }).project.list(),
    );
    expect(locked.code).toBe("UNAUTHORIZED");
    expect(asked).toBe(false);
    await caller(fakes, { required: true, authenticated: true }).project.list();
    expect(asked).toBe(true);
  });

  it("runtime.releaseProviderThread is for instances only; a forwarded call carries its origin", async () => {
    const origins: unknown[] = [];
    const fakes: Fakes = {
      commands: {
        releaseProviderThread: async () => ({ outcome: "released" }),
        steer: async (_input, origin) => {
          origins.push(origin);
          return { sequence: 1 };
        },
      },
    };
    const client = await refusal(
      caller(fakes).runtime.releaseProviderThread({ nativeThreadRef: "t-1" }),
    );
    expect(client.code).toBe("FORBIDDEN");
    const peer = caller(fakes, OPEN, "instance-b");
    expect(await peer.runtime.releaseProviderThread({ nativeThreadRef: "t-1" })).toEqual({
      outcome: "released",
    });
    await peer.thread.steer({ threadId: THREAD, text: "go on" });
    await caller(fakes).thread.steer({ threadId: THREAD, text: "go on" });
    expect(origins).toEqual([{ forwardedBy: "instance-b" }, undefined]);
  });
});
