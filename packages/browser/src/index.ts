export { browsableApi } from './browsable-api.js';
export { openApiRoute } from './openapi-route.js';
