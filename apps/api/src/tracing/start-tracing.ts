import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

export type TracingConfig = {
  /** Where spans go: an OTLP/HTTP traces URL (…/v1/traces). */
  endpoint: string;
  instanceId: string;
  version: string;
};

export type Tracing = { shutdown(): Promise<void> };

/**
 * B11: exports spans (command → decide/append → provider request → turn) over OTLP/HTTP in
 * batches, off the request path; a collector that is down costs dropped spans, never a call.
 */
export function startTracing(config: TracingConfig): Tracing {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": "skein-api",
      "service.version": config.version,
      "service.instance.id": config.instanceId,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: config.endpoint }),
        scheduledDelayMillis: 1_000,
        maxQueueSize: 4_096,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
    },
  };
}
