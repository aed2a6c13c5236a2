import type Koa from 'koa';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

/** The files of the browsable API, by URL path; read once, as the page has no build step. */
const FILES: Readonly<Record<string, [file: string, type: string]>> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/browser.js': ['browser.js', 'text/javascript; charset=utf-8'],
  '/browser.css': ['browser.css', 'text/css; charset=utf-8'],
};

/** Serves the browsable API's page and its two assets; any other path goes on down the chain. */
export function browsableApi(): Koa.Middleware {
  const contents = new Map(
    Object.entries(FILES).map(([path, [file, type]]) => [path, { body: readFileSync(join(PUBLIC, file)), type }]),
  );
  return async (ctx, next) => {
    const found = contents.get(ctx.path);
    if (!found || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    // A fixed path is its own route template, for a request log (@koa/router's field).
    (ctx as { _matchedRoute?: string })._matchedRoute = ctx.path;
    ctx.type = found.type;
    ctx.set('Cache-Control', 'no-cache');
    // The page runs its own script only and talks to this origin only.
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = found.body;
  };
}
