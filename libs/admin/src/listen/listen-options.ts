import { parseEventTypesParameter } from '@ledger/contracts';
import { WEBHOOK_EVENT_TYPES } from '@ledger/domain';
import { AdminUsageError, readCommandLine } from '../admin-command-line';

export const LISTEN_USAGE = `  listen --api-key KEY --forward-to URL [--events TYPE,...] [--base-url URL]
                                      follows GET /v1/events/stream and forwards each event to URL,
                                      signed per Standard Webhooks with a session secret it prints;
                                      one line per event; Ctrl-C ends it`;

export interface ListenOptions {
  readonly apiKey: string;
  readonly forwardTo: URL;
  /** Absent: every type. */
  readonly events: string | undefined;
  readonly baseUrl: URL;
}

/** `listen`'s options; a missing or malformed one is a usage error naming it. */
export function parseListenOptions(args: readonly string[], defaultBaseUrl: string): ListenOptions {
  const { 'api-key': apiKey, 'forward-to': forwardToText, events, 'base-url': baseUrl } = readCommandLine('listen', args).values;
  if (!apiKey) throw new AdminUsageError('listen needs --api-key KEY');
  const forwardTo = httpUrl('--forward-to', forwardToText);
  if (!forwardTo) throw new AdminUsageError('listen needs --forward-to URL');
  if (events !== undefined && parseEventTypesParameter(events) === null) throw new AdminUsageError(`--events must be a comma list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return { apiKey, forwardTo, events, baseUrl: httpUrl('--base-url', baseUrl ?? defaultBaseUrl)! };
}

function httpUrl(name: string, text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AdminUsageError(`${name} must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdminUsageError(`${name} must be an http or https URL`);
  return url;
}
