#!/usr/bin/env node
import { main } from './main.js';

// The server keeps the process alive; a command that ends by itself sets the exit code.
main(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
