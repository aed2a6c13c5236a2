/** The provider's shutdown, once tracing has started in this process. */
let shutdown: (() => Promise<void>) | undefined;

/**
 * Turns on OpenTelemetry tracing with the OTLP exporter (HTTP/protobuf-JSON, as the OpenTelemetry SDK's
 * environment variables configure it) when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * is set; else does nothing, so that the libraries' spans stay no-ops. The service is named `serviceName`
 * unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` says otherwise. Answers whether tracing is on.
 *
 * The SDK is imported only then: a server that does not export loads none of it.
 */
export async function startOtlpTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (shutdown) return true;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources
    .resourceFromAttributes({ 'service.name': serviceName })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  shutdown = () => provider.shutdown();
  return true;
}

/** Sends the spans still buffered and stops tracing; nothing when it never started. Never rejects. */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.().catch(() => undefined);
}
