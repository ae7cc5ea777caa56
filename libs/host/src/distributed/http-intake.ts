import type { Server, ServerResponse } from 'node:http';
import { InFlightWork } from './in-flight-work';

/**
 * Counts the HTTP requests in progress so that a shutdown can stop taking new ones and still answer
 * every one it took. While draining, answers carry `Connection: close`, so keep-alive clients move
 * to another replica instead of sending their next request here.
 */
export class HttpIntake {
  private readonly inFlight = new InFlightWork();
  private draining = false;

  /** One listener for every response: a response closes once, so nothing is made per request. */
  private readonly closed = (): void => this.inFlight.finished();

  /** Counts a request from now until its response closes (Node closes every response, answered or not, after `finish`). */
  took(response: ServerResponse): void {
    this.inFlight.started();
    response.on('close', this.closed);
    if (this.draining) response.setHeader('Connection', 'close');
  }

  /** Marks answers `Connection: close` from now on (the start of a drain). */
  beginDraining(): void {
    this.draining = true;
  }

  /** Stops listening, waits for the requests in progress (at most timeoutMs), then drops every connection. */
  async close(server: Server, timeoutMs: number): Promise<{ unfinished: number }> {
    this.draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const unfinished = await this.inFlight.settled(timeoutMs);
    server.closeAllConnections();
    await closed;
    return { unfinished };
  }
}
