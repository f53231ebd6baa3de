import { type Logger as PinoLogger, pino } from "pino";
import type { LogLevel } from "./env.ts";

export type Logger = PinoLogger;

/** Structured JSON logs on stdout; the token never reaches them (see the redact paths). */
export function createLogger(level: LogLevel): Logger {
  return pino({
    name: "skein-api",
    level,
    redact: { paths: ["req.headers.authorization", "apiToken", "token"], censor: "[redacted]" },
  });
}

export function createSilentLogger(): Logger {
  return pino({ level: "silent" });
}
