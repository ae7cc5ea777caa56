import { parseEventTypesParameter } from '@ledger/contracts';

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

export class ListenUsageError extends Error {}

/** `listen`'s options; a missing or malformed one is a usage error naming it. */
export function parseListenOptions(args: readonly string[], defaultBaseUrl: string): ListenOptions {
  const value = (name: string): string | undefined => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const given = args[at + 1];
    if (given === undefined || given.startsWith('--')) throw new ListenUsageError(`${name} needs a value`);
    return given;
  };
  const known = new Set(['--api-key', '--forward-to', '--events', '--base-url']);
  const unknown = args.slice(1).filter((arg, i, all) => arg.startsWith('--') && !known.has(arg) && !known.has(all[i - 1] ?? ''));
  if (unknown.length > 0) throw new ListenUsageError(`listen does not take ${unknown.join(', ')}`);
  const apiKey = value('--api-key');
  if (!apiKey) throw new ListenUsageError('listen needs --api-key KEY');
  const forwardTo = httpUrl('--forward-to', value('--forward-to'));
  if (!forwardTo) throw new ListenUsageError('listen needs --forward-to URL');
  const events = value('--events');
  if (events !== undefined && parseEventTypesParameter(events) === null) throw new ListenUsageError(`--events must be a comma list of card.created, card.updated, card_transaction.updated`);
  return { apiKey, forwardTo, events, baseUrl: httpUrl('--base-url', value('--base-url') ?? defaultBaseUrl)! };
}

function httpUrl(name: string, text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ListenUsageError(`${name} must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ListenUsageError(`${name} must be an http or https URL`);
  return url;
}
