import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Files of one folder under a URL prefix, read-only: what Swagger UI's assets (and a built
 * dashboard) need on Fastify without @fastify/static (not a dependency here). A folder's page is its
 * index.html; a path that leaves the folder, a folder without one, or a missing file is 404.
 * Register before `app.init()`.
 */
export function serveStaticFiles(fastify: FastifyInstance, options: { prefix: string; root: string }): void {
  const root = path.resolve(options.root);
  const prefix = options.prefix.replace(/\/+$/, '');
  fastify.get(`${prefix}/*`, async (request, reply) => {
    let relative: string;
    try {
      relative = decodeURIComponent((request.params as { '*': string })['*'] ?? '');
    } catch {
      return reply.callNotFound();
    }
    // A folder's page is its index.html (`/dashboard/`, `/dashboard/reports/`).
    const file = path.resolve(root, relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative);
    if (!file.startsWith(root + path.sep)) return reply.callNotFound();
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      return reply.callNotFound();
    }
    reply.type(CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
    return reply.send(content);
  });
}
