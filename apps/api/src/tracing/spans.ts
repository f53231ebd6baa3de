import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

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

/** Runs `body` as the active span `name`, so spans started inside it become its children. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  body: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      const result = await body();
      endSpan(span);
      return result;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  });
}
