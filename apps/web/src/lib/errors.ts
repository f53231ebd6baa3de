/**
 * Failed calls in words. tRPC errors carry the API's code (`CONFLICT`, …) in `data.code` and the
 * domain's reason in `data.domainCode`; a person reads a sentence saying what happened and what
 * to do, and the code stays available in a small details line for a bug report.
 */
export type ApiFailure = {
  /** What happened and what to do, as sentences. */
  message: string;
  /** The API's code, or null for a network failure or a plain Error. */
  code: string | null;
  /** `CODE: server message`, for the details line. */
  detail: string;
};

type Advice = (what: string, domainCode: string | null) => string;

const ADVICE: Record<string, Advice> = {
  BAD_REQUEST: (what) => `${what} Check what you entered and try again.`,
  UNAUTHORIZED: () =>
    "The API needs a token for this tab. Enter the value of SKEIN_API_TOKEN in the banner above.",
  FORBIDDEN: (what) => `${what} The API refused this request: check the token and try again.`,
  NOT_FOUND: (what) =>
    `${what} It may have been deleted; reload the page to see what is there now.`,
  CONFLICT: (what, domain) =>
    domain === "invalid_transition"
      ? `${what} That cannot be done in its current state: wait for the running work to settle, then try again.`
      : `${what} Something changed it first: wait a moment and try again.`,
  PRECONDITION_FAILED: (what, domain) =>
    domain === "capability_unsupported"
      ? `${what} This provider cannot do that: choose another provider or option.`
      : `${what} Fix that first, then try again.`,
  PAYLOAD_TOO_LARGE: (what) => `${what} Shorten the text and send it again.`,
  TOO_MANY_REQUESTS: () => "Too many requests at once. Wait a few seconds and try again.",
  TIMEOUT: () => "The API took too long to answer. Try again in a moment.",
  SERVICE_UNAVAILABLE: (what) =>
    `The API is not available right now: ${what} Wait a moment; live views reconnect by themselves.`,
  INTERNAL_SERVER_ERROR: () =>
    "The API failed unexpectedly. Try again; if it keeps failing, the API's log says why.",
};

const NETWORK =
  /failed to fetch|fetch failed|networkerror|load failed|network request failed|econnrefused/i;

export function describeError(error: unknown): ApiFailure {
  const { code, domainCode, text } = partsOf(error);
  const detail = code === null ? text : `${code}: ${text}`;
  if (code === null) {
    if (NETWORK.test(text)) {
      return {
        message: "Could not reach the Skein API. Check that it is running, then try again.",
        code: null,
        detail,
      };
    }
    return { message: sentence(text || "Something went wrong."), code, detail };
  }
  const advice = ADVICE[code] ?? ((what: string) => `${what} Try again.`);
  return { message: advice(sentence(text || "The request failed."), domainCode), code, detail };
}

/** The worded message alone (for places that show one line). */
export function errorMessage(error: unknown): string {
  return describeError(error).message;
}

/**
 * The old machine form, `CODE: message`: kept for watch states, whose consumers branch on the
 * code (the token banner) and show it only as a tooltip. `describeError` reads it back.
 */
export function rawErrorText(error: unknown): string {
  if (error instanceof Error) {
    const code = codeOf(error);
    return code === null ? error.message : `${code}: ${error.message}`;
  }
  return String(error);
}

export function codeOf(error: unknown): string | null {
  const data = dataOf(error);
  return typeof data?.code === "string" ? data.code : null;
}

const RAW = /^([A-Z][A-Z_]+): ([\s\S]*)$/;

function partsOf(error: unknown): { code: string | null; domainCode: string | null; text: string } {
  if (typeof error === "string") {
    const raw = RAW.exec(error);
    return raw && raw[1]! in ADVICE
      ? { code: raw[1]!, domainCode: null, text: raw[2]! }
      : { code: null, domainCode: null, text: error };
  }
  const data = dataOf(error);
  const text = error instanceof Error ? error.message : String(error);
  return {
    code: typeof data?.code === "string" ? data.code : null,
    domainCode: typeof data?.domainCode === "string" ? data.domainCode : null,
    text,
  };
}

function dataOf(error: unknown): Record<string, unknown> | null {
  if (typeof error !== "object" || error === null || !("data" in error)) return null;
  const data = (error as { data: unknown }).data;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : null;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
