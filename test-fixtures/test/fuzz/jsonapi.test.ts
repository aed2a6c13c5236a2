import { fuzzSuite } from './fuzz-runner.js';
import { jsonApiRequests } from './jsonapi-requests.js';

fuzzSuite('jsonapi', jsonApiRequests);
