export { article, comment, person, tag } from './models.js';
export { BASE, ORIGIN, request, routeOf, type RequestInit } from './request.js';
export { collectionLookup, nodeBuilder } from './registry.js';
export { apiError, expectError } from './errors.js';
