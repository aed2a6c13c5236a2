export { Article, Comment, MODELS, Network, Person, Tag, Task } from './models.js';
export { createTables, TABLES } from './tables.js';
export { conformanceRegistry } from './conformance-registry.js';
export { FORMAT_NAMES, formatByName } from './formats.js';
export { startConformanceTarget, type ConformanceOptions, type ConformanceTarget } from './conformance-app.js';
