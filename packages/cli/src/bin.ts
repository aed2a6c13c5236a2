#!/usr/bin/env node
import { checkNode } from '@colapi/node-support';
import cluster from 'node:cluster';

// The runtime is checked before anything that could crash on the wrong one (native modules) is loaded.
if (checkNode('colapi')) {
  const { main } = await import('./main.js');
  // The server keeps the process alive; a command that ends by itself sets the exit code.
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
  // A --workers worker that failed to start keeps its channel to the primary open: it must end to be told.
  if (code !== undefined && cluster.isWorker) process.exit(code);
}
