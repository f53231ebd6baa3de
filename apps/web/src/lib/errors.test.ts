import { describe, expect, it } from "vitest";
import { describeError, errorMessage } from "./errors.ts";

/** What a tRPC client error looks like to the UI: a message and the API's data. */
function apiError(code: string, message: string, domainCode: string | null = null) {
  return Object.assign(new Error(message), { data: { code, domainCode } });
}

describe("API errors in words", () => {
  it("says what happened and what to do, keeping the code for the details line", () => {
    const failure = describeError(apiError("CONFLICT", "thread thr_1 is running"));
    expect(failure.message).toBe(
      "Thread thr_1 is running. Something changed it first: wait a moment and try again.",
    );
    expect(failure.code).toBe("CONFLICT");
    expect(failure.detail).toBe("CONFLICT: thread thr_1 is running");
  });

  it("never shows a raw CODE: prefix, for any code the API sends", () => {
    for (const code of [
      "BAD_REQUEST",
      "UNAUTHORIZED",
      "FORBIDDEN",
      "NOT_FOUND",
      "CONFLICT",
      "PRECONDITION_FAILED",
      "PAYLOAD_TOO_LARGE",
      "TOO_MANY_REQUESTS",
      "TIMEOUT",
      "SERVICE_UNAVAILABLE",
      "INTERNAL_SERVER_ERROR",
      "SOMETHING_NEW",
    ]) {
      const message = errorMessage(apiError(code, "text: thing went wrong"));
      expect(message, code).not.toMatch(/[A-Z]{3,}_?[A-Z]*:/);
      expect(message, code).toMatch(/[.!?]$/);
      expect(message.split(". ").length, code).toBeGreaterThan(1);
    }
  });

  it("uses the domain's reason to choose the advice", () => {
    expect(
      errorMessage(apiError("PRECONDITION_FAILED", "no native fork", "capability_unsupported")),
    ).toContain("choose another provider");
    expect(errorMessage(apiError("CONFLICT", "run is queued", "invalid_transition"))).toContain(
      "wait for the running work to settle",
    );
  });

  it("a network failure says the API cannot be reached; raw watch text is read back", () => {
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe(
      "Could not reach the Skein API. Check that it is running, then try again.",
    );
    const fromWatch = describeError("NOT_FOUND: thread thr_x not found");
    expect(fromWatch.code).toBe("NOT_FOUND");
    expect(fromWatch.message).toMatch(/^Thread thr_x not found\. It may have been deleted/);
    expect(describeError("plain words").message).toBe("Plain words.");
  });
});
