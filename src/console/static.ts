// The web console's files: static ES modules from `console/` and the few
// browser libraries it imports (Preact, htm, uPlot) straight from their
// packages' dist folders in node_modules, through the import map in
// index.html. No build step, no CDN. Only listed files are served (no path
// from the URL reaches the file system). The console is a client of the
// REST interface like any other: this router serves files, never data.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../core/http/errors';
import { APP_ROOT } from '../core/app-root';

export const CONSOLE_PATH = '/console';

const CONSOLE_DIR = path.join(APP_ROOT, 'console');

/** URL name under /console/vendor/ -> file in node_modules. */
export const VENDOR_FILES: Readonly<Record<string, string>> = {
  'preact.mjs': 'preact/dist/preact.mjs',
  'preact-hooks.mjs': 'preact/hooks/dist/hooks.mjs',
  'htm.mjs': 'htm/dist/htm.mjs',
  'uPlot.esm.js': 'uplot/dist/uPlot.esm.js',
  'uPlot.min.css': 'uplot/dist/uPlot.min.css',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
}

function load(file: string): StaticFile {
  return { body: readFileSync(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' };
}

/** Every file under console/ (relative path with '/'), read once at start. */
function consoleFiles(dir: string, prefix = ''): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const [k, v] of consoleFiles(full, `${prefix}${name}/`)) files.set(k, v);
    else if (TYPES[path.extname(name)]) files.set(`${prefix}${name}`, load(full));
  }
  return files;
}

function send(ctx: Context, file: StaticFile, cache: string): void {
  ctx.set('Cache-Control', cache);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = file.type;
  ctx.body = file.body;
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `rootPath`: where the REST interface is mounted (ROOT_PATH), written into
 * the page so the console finds it relative to its own address (and keeps
 * working behind a proxy that adds a prefix).
 */
export function consoleRouter(rootPath: string, version: string): Router {
  const files = consoleFiles(CONSOLE_DIR);
  const vendor = new Map(Object.entries(VENDOR_FILES).map(([name, rel]) => [name, load(path.join(APP_ROOT, 'node_modules', rel))]));
  const index = files.get('index.html');
  if (!index) throw new Error(`console/index.html missing under ${CONSOLE_DIR}`);
  const page = index.body.toString('utf8').replace('%API_ROOT%', escapeAttr(rootPath)).replace('%VERSION%', escapeAttr(version));
  const indexFile: StaticFile = { body: Buffer.from(page), type: TYPES['.html'] as string };

  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = TYPES['.html'] as string;
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tagtrail</title></head><body>
<h1>tagtrail</h1><ul>
<li><a href="console/">Web console</a></li>
<li><a href="${escapeAttr(rootPath.replace(/^\//, ''))}/openapi.json">REST interface (OpenAPI)</a></li>
<li><a href="healthz">Health</a></li></ul></body></html>`;
  });
  // The router matches `/console` with or without the trailing slash; the
  // page's relative URLs need the slash.
  router.get(CONSOLE_PATH, (ctx) => {
    if (ctx.path.endsWith('/')) return send(ctx, indexFile, 'no-cache');
    ctx.status = 301;
    ctx.redirect(`${CONSOLE_PATH}/`);
  });
  // The file name is only ever a key of the maps above, never a file path.
  router.get(`${CONSOLE_PATH}/*file`, (ctx) => {
    const name = ctx.path.slice(CONSOLE_PATH.length + 1);
    const vendorFile = name.startsWith('vendor/') ? vendor.get(name.slice('vendor/'.length)) : undefined;
    if (vendorFile) return send(ctx, vendorFile, 'public, max-age=3600');
    const file = name === 'index.html' ? indexFile : files.get(name);
    if (!file) throw notFound(`no console file ${ctx.path}`);
    send(ctx, file, 'no-cache');
  });
  return router;
}
