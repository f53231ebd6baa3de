import { describe, expect, it } from "vitest";
import { acpRuntimeGone, acpTurnFailure } from "./turn-failure.ts";

/** A JSON-RPC error as the ACP SDK rejects a request with it. */
function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

const google = (code: number, message: string, status: string) =>
  JSON.stringify({ error: { code, message, status } });

describe("B2: an ACP agent's failed prompt as a typed failure", () => {
  it("B2 Gemini CLI's JSON-RPC code is the HTTP status; its error body gives the words", () => {
    expect(
      acpTurnFailure(rpcError(401, google(401, "API key not valid.", "UNAUTHENTICATED"))),
    ).toEqual({
      kind: "auth",
      message: "API key not valid. (UNAUTHENTICATED)",
    });
    expect(acpTurnFailure(rpcError(429, "Quota exhausted.\nSuggested retry after 3s."))).toEqual({
      kind: "rate_limited",
      message: "Quota exhausted.\nSuggested retry after 3s.",
      retryAfterMs: 3_000,
    });
    expect(acpTurnFailure(rpcError(503, "The model is overloaded.")).kind).toBe("overloaded");
    expect(acpTurnFailure(rpcError(400, google(400, "Bad.", "INVALID_ARGUMENT"))).kind).toBe(
      "invalid_request",
    );
    expect(acpTurnFailure(rpcError(500, google(500, "Internal.", "INTERNAL"))).kind).toBe(
      "internal",
    );
  });

  it("B2 a 500 whose words say the fetch failed is the network, not the service", () => {
    expect(
      acpTurnFailure(rpcError(500, "exception TypeError: fetch failed sending request")),
    ).toEqual({
      kind: "network",
      message: "exception TypeError: fetch failed sending request",
    });
  });

  it("B2 JSON-RPC's own codes say nothing of the kind: the words do (claude-agent-acp)", () => {
    const failure = acpTurnFailure(
      rpcError(-32603, "Internal error", "API Error: 429 rate_limit_error"),
    );
    expect(failure).toEqual({
      kind: "rate_limited",
      message: "Internal error: API Error: 429 rate_limit_error",
    });
    expect(acpTurnFailure(new Error("something odd")).kind).toBe("internal");
  });

  it("B2 an agent that exits during the turn is a crashed runtime", () => {
    expect(acpRuntimeGone("Gemini CLI", "boom")).toEqual({
      kind: "runtime_crashed",
      message: "Gemini CLI exited during the turn: boom",
    });
  });
});
