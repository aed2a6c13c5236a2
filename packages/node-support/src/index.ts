export { checkNode, ENGINES_RANGE, nodeVerdict, SUPPORTED_NODE, type NodeVerdict } from './node-support.js';
export { startOtlpTracing, stopTracing } from './otlp-tracing.js';
