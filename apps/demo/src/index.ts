export { startDemo, DatabaseUnavailable, type Demo, type DemoOptions } from './demo-app.js';
export { demoRegistry } from './registry.js';
export { Author, Book, MODELS, Publisher, Review, Tag } from './models.js';
export { createTables, TABLES } from './tables.js';
export { generateBookshop, type Rows, type SeedCounts } from './seed-data.js';
export { isEmpty, seedIfEmpty } from './seed.js';
export { requestLog } from '@colapi/server-koa';
export { browsableApi, openApiRoute } from '@colapi/browser';
export { FORMATS, formatByName } from './formats.js';
