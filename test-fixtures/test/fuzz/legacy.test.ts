import { fuzzSuite } from './fuzz-runner.js';
import { legacyRequests } from './legacy-requests.js';

fuzzSuite('legacy', legacyRequests);
