import { describe, expect, it } from "vitest";
import { parseWebEnv } from "./env.ts";

describe("web env", () => {
  it("defaults to the API on loopback at its default port", () => {
    expect(parseWebEnv({})).toEqual({ apiUrl: "http://127.0.0.1:4317" });
  });

  it("follows SKEIN_API_PORT and SKEIN_HOST; wildcard binds are reached on loopback", () => {
    expect(parseWebEnv({ SKEIN_API_PORT: "5000" }).apiUrl).toBe("http://127.0.0.1:5000");
    expect(parseWebEnv({ SKEIN_HOST: "0.0.0.0", SKEIN_API_PORT: "5000" }).apiUrl).toBe(
      "http://127.0.0.1:5000",
    );
    expect(parseWebEnv({ SKEIN_HOST: "10.0.0.2" }).apiUrl).toBe("http://10.0.0.2:4317");
    expect(parseWebEnv({ SKEIN_HOST: "::1" }).apiUrl).toBe("http://[::1]:4317");
  });

  it("an explicit SKEIN_API_URL wins; bad values are refused with the variable's name", () => {
    expect(parseWebEnv({ SKEIN_API_URL: "http://api.local:9/", SKEIN_API_PORT: "1" }).apiUrl).toBe(
      "http://api.local:9",
    );
    expect(() => parseWebEnv({ SKEIN_API_URL: "ftp://x" })).toThrow(/SKEIN_API_URL/);
    expect(() => parseWebEnv({ SKEIN_API_PORT: "http" })).toThrow(/SKEIN_API_PORT/);
  });
});
