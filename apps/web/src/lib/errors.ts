/**
 * A one-line, human-readable description of a failed call. tRPC errors carry the API's code
 * (`PRECONDITION_FAILED`, `CONFLICT`, …) in `data.code`; showing it tells the user whether to
 * retry, wait, or give up.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const code = codeOf(error);
    return code === null ? error.message : `${code}: ${error.message}`;
  }
  return String(error);
}

export function codeOf(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !("data" in error)) return null;
  const data = (error as { data: unknown }).data;
  if (typeof data !== "object" || data === null || !("code" in data)) return null;
  const code = (data as { code: unknown }).code;
  return typeof code === "string" ? code : null;
}
