import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../errors.ts";
import { asStoreFault, isConnectionFault, isStoreFault } from "./connection-faults.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("issue 35: a lost PostgreSQL connection is a typed store fault", () => {
  it("connection and server-gone errors are faults; a query's own error is not", () => {
    expect(isConnectionFault(withCode("terminating connection", "57P01"))).toBe(true);
    expect(isConnectionFault(withCode("the database system is shutting down", "57P03"))).toBe(true);
    expect(isConnectionFault(withCode("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"))).toBe(
      true,
    );
    expect(isConnectionFault(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionFault(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isConnectionFault("57P01")).toBe(false);
  });

  it("asStoreFault types a lost connection and leaves other errors unchanged", () => {
    const lost = asStoreFault(withCode("terminating connection", "57P01"));
    expect(lost).toBeInstanceOf(StoreUnavailableError);
    expect((lost as Error).message).toMatch(/PostgreSQL connection was lost \(terminating/);
    const other = withCode("duplicate key value", "23505");
    expect(asStoreFault(other)).toBe(other);
    expect(isStoreFault(lost)).toBe(true);
    expect(isStoreFault(other)).toBe(false);
  });
});
