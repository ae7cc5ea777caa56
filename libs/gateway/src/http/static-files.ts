import type { FastifyInstance } from 'fastify';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The types of the files swagger-ui-dist ships; any other is application/octet-stream. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The files of one flat folder under a URL prefix, read-only: Swagger UI's assets on Fastify.
 * @fastify/static is not used: the @nestjs/swagger 11.4.0 here accepts @fastify/static 8 or 9, the
 * Fastify adapter 10, so no version fits both. Only the files the folder holds at start are served,
 * by name, so no path can lead out of it; anything else is 404. Register before `app.init()`.
 */
export function serveStaticFiles(fastify: FastifyInstance, options: { prefix: string; root: string }): void {
  const files = new Set(readdirSync(options.root, { withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : [])));
  fastify.get(`${options.prefix.replace(/\/+$/, '')}/*`, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    if (!files.has(name)) return reply.callNotFound();
    return reply.type(CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream').send(await readFile(path.join(options.root, name)));
  });
}
