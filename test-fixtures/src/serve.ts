import { checkNode } from '@colapi/node-support';

// `pnpm conformance:serve`. The runtime is checked before anything that could crash on the wrong one is loaded.
if (checkNode('conformance target')) await import('./serve-target.js');
