// preload: prints "@@ REQ n" to fd 1 every 250 requests, in order with V8's --trace-* output (same fd)
import dc from 'node:diagnostics_channel';
import { writeSync } from 'node:fs';
let n = 0;
dc.subscribe('http.server.request.start', () => { if (++n % 250 === 0) writeSync(1, `@@ REQ ${n}\n`); });
