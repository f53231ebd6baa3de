import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * Skein's tracer. Until tracing is started (an OTLP endpoint configured) this is the API's no-op
 * tracer, so an untraced server pays one function call per span and nothing else.
 */
export const tracer = trace.getTracer("skein");

/** Ends a span with the outcome of what it measured. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
  }
  span.end();
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
