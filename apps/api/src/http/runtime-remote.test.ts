import type { AddressInfo } from "node:net";
import type { ThreadId } from "@skein/domain";
import { initTRPC, TRPCError } from "@trpc/server";
import { createHTTPServer } from "@trpc/server/adapters/standalone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RemoteUnreachableError } from "../orchestrator/runtime/runtime-remote.ts";
import { createHttpRuntimeRemote, FORWARDED_HEADER } from "./runtime-remote.ts";

// The HTTP RuntimeRemote against a stand-in owner instance that answers steer the way a real one
// can: accepted, refused with a domain code, or refusing the caller's token.

type Ctx = { forwardedBy: string | undefined };
const t = initTRPC.context<Ctx>().create({
  errorFormatter: ({ shape }) => ({ ...shape, data: { ...shape.data, domainCode: "conflict" } }),
});
const ownerRouter = t.router({
  thread: t.router({
    steer: t.procedure
      .input(z.object({ threadId: z.string(), text: z.string() }))
      .mutation(({ ctx, input }) => {
        if (input.text === "refuse") throw new TRPCError({ code: "CONFLICT", message: "no turn" });
        if (input.text === "token") throw new TRPCError({ code: "UNAUTHORIZED" });
        return { sequence: 7, forwardedBy: ctx.forwardedBy };
      }),
  }),
});

let address = "";
const server = createHTTPServer({
  router: ownerRouter,
  basePath: "/trpc/",
  createContext: ({ req }) => ({ forwardedBy: req.headers[FORWARDED_HEADER] as string }),
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const remote = createHttpRuntimeRemote({ instanceId: "B", apiToken: null });
const threadId = "thr_1" as ThreadId;
const steer = (text: string, at = address) =>
  remote.steer(at, { threadId, text }, AbortSignal.timeout(5_000));

describe("the HTTP RuntimeRemote", () => {
  it("returns the owner's result, marking the call with this instance's id", async () => {
    expect(await steer("go")).toEqual({ sequence: 7, forwardedBy: "B" });
  });

  it("passes the owner's refusal on as the owner's own error (tRPC code and domain code)", async () => {
    const error = await steer("refuse").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({
      code: "CONFLICT",
      message: "no turn",
      cause: { code: "conflict" },
    });
  });

  it("reports a refused token as the owner being unreachable, saying why", async () => {
    const error = await steer("token").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnreachableError);
    expect((error as RemoteUnreachableError).why).toMatch(/refused this instance's API token/);
  });

  it("reports a connection failure as unreachable, naming the address", async () => {
    const closed = createHTTPServer({
      router: ownerRouter,
      createContext: () => ({ forwardedBy: undefined }),
    });
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await steer("go", gone).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnreachableError);
    expect((error as RemoteUnreachableError).why).toContain(`could not be reached at ${gone}`);
  });
});
