import { checkNode } from '@colapi/node-support';

// `pnpm demo`. The runtime is checked before anything that could crash on the wrong one is loaded.
if (checkNode('demo')) await import('./demo-main.js');
