import type { Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/**
 * Counts the HTTP requests in progress so that a shutdown can stop taking new ones and still answer
 * every one it took. While draining, answers carry `Connection: close`, so keep-alive clients move
 * to another replica instead of sending their next request here.
 */
export class HttpIntake {
  private inFlight = 0;
  private draining = false;
  private readonly idleWaiters = new Set<() => void>();

  readonly middleware = (_request: Request, response: Response, next: NextFunction): void => {
    this.inFlight++;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of [...this.idleWaiters]) wake();
    };
    response.once('finish', finish);
    response.once('close', finish);
    if (this.draining) response.setHeader('Connection', 'close');
    next();
  };

  /** Marks answers `Connection: close` from now on (the start of a drain). */
  beginDraining(): void {
    this.draining = true;
  }

  /** Stops listening, waits for the requests in progress (at most timeoutMs), then drops every connection. */
  async close(server: Server, timeoutMs: number): Promise<{ unfinished: number }> {
    this.draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.idleWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.idleWaiters.add(done);
      });
    }
    const unfinished = this.inFlight;
    server.closeAllConnections();
    await closed;
    return { unfinished };
  }
}
