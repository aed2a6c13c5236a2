#!/usr/bin/env node
import { checkNode } from '@colapi/node-support';

// The runtime is checked before anything that could crash on the wrong one (native modules) is loaded.
if (checkNode('colapi')) {
  const { main } = await import('./main.js');
  // The server keeps the process alive; a command that ends by itself sets the exit code.
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}
