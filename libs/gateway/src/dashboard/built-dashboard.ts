import { Injectable, Logger } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One file of the built dashboard, read once at start-up. */
export interface DashboardFile {
  readonly body: Buffer;
  readonly contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Where `npm run build` puts the dashboard: `dist/dashboard` beside the repository's package.json,
 * found by walking up from this file, so it is the same place whether this runs from the sources
 * (tests) or from dist/ (npm start, the Docker image). DASHBOARD_DIR overrides it (tests build
 * their own copy so a concurrent `npm run build` cannot pull it away from under them).
 */
export function dashboardDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DASHBOARD_DIR) return path.resolve(env.DASHBOARD_DIR);
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'dashboard');
}

/**
 * The built dashboard held in memory: a few small files, so every answer is a lookup, and a build
 * running meanwhile (it empties dist/) never serves half a file. Only files the build wrote can be
 * asked for; names are looked up, never joined onto a path.
 */
@Injectable()
export class BuiltDashboard {
  private readonly files = new Map<string, DashboardFile>();
  readonly directory = dashboardDirectory();

  constructor() {
    if (!existsSync(path.join(this.directory, 'index.html'))) {
      new Logger('Dashboard').warn(`no built dashboard in ${this.directory}: /dashboard answers 503 until \`npm run build\` makes one`);
      return;
    }
    this.files.set('index.html', this.read('index.html'));
    const assets = path.join(this.directory, 'assets');
    if (existsSync(assets)) for (const name of readdirSync(assets)) this.files.set(`assets/${name}`, this.read(`assets/${name}`));
  }

  get built(): boolean {
    return this.files.has('index.html');
  }

  /** The file at this path under the dashboard, or null when the build made none. */
  file(relativePath: string): DashboardFile | null {
    return this.files.get(relativePath) ?? null;
  }

  private read(relativePath: string): DashboardFile {
    const contentType = CONTENT_TYPES[path.extname(relativePath)] ?? 'application/octet-stream';
    return { body: readFileSync(path.join(this.directory, relativePath)), contentType };
  }
}
