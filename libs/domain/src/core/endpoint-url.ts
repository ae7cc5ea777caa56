import { InvalidInput } from './domain-error';

/**
 * A program's endpoint (a webhook receiver, its authorization endpoint) has a URL we call. Its form is
 * a business rule: http or https, a host, and no credentials, since `user:password@` would be sent to
 * whoever answers and shown again by every read; a program authenticates our calls by their signature.
 */
export class EndpointUrlInvalid extends InvalidInput {
  static override readonly code = 'endpoint_url_invalid';
  constructor(why: string) {
    super(`url ${why}`, 'url');
  }
}

/**
 * Where the URL leads is checked at the edge, against the operator's egress policy (its host, and every
 * address the host resolves to). One message whatever the reason, so the answer tells a caller nothing
 * about our network that the refusal itself does not.
 */
export class EndpointUrlNotAllowed extends InvalidInput {
  static override readonly code = 'endpoint_url_not_allowed';
  constructor() {
    super('url must lead to a public address: this one, or an address its host resolves to, is internal', 'url');
  }
}

export function checkedEndpointUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointUrlInvalid('must be an http or https URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') throw new EndpointUrlInvalid('must be an http or https URL');
  if (parsed.username !== '' || parsed.password !== '') throw new EndpointUrlInvalid('must not carry credentials (user:password@)');
  return url;
}
