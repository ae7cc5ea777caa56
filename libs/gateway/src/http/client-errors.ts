import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MappedError } from './error-status';
import { FINAL, NO_ADVICE } from './errors';

const logger = new Logger('HTTP');

/** Node's parse and timeout errors: `code` (HPE_… from llhttp, ERR_HTTP_REQUEST_TIMEOUT) and llhttp's `reason`. */
type ClientError = Error & { code?: string; reason?: string };

/**
 * What a refusal below the API answers: the server's 'clientError', raised before a request exists
 * (a request line or header the parser refuses, conflicting Content-Length and Transfer-Encoding,
 * headers over the size limit, a request not received in time). No hook, filter or request logger
 * sees these, so the same JSON error body (`debugging_request_id`, `message`) and the status are
 * written on the socket here, a line is logged under the same id, and the connection closes: the
 * parser cannot tell where the next request would start.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const { status, message, retry } = refusalOf(error);
  logger.warn(`${status} ${message} (${error.code ?? error.name}) from ${socket.remoteAddress ?? 'an unknown address'}, refused before it was a request; debugging_request_id ${requestId}`);
  if (socket.writable && !answering(socket)) {
    const text = JSON.stringify({ debugging_request_id: requestId, message });
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'x-request-id': requestId, connection: 'close', ...retry };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${text}`);
  }
  socket.destroy();
}

/**
 * Whether an answer to an earlier request on this keep-alive connection is still being written
 * (Node attaches it to the socket until it finishes): bytes written now would land inside it or
 * before it, so the connection only closes.
 */
function answering(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current != null && !current.writableFinished;
}

/**
 * A request not received within HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS (408), headers over Node's
 * size limit (431), or one the parser refused (400). Never thrown: each is only ever this answer.
 */
function refusalOf(error: ClientError): MappedError {
  // Sent again at an ordinary pace, the same request may well be received.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Request was not received in time', retry: NO_ADVICE };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'Request headers are too large', retry: FINAL };
  return { status: 400, message: `Malformed HTTP request: ${error.reason ?? error.code ?? 'the parser refused it'}`, retry: FINAL };
}
