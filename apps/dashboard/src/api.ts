import { savedApiKey } from './session';

/** An answer other than 2xx, with the service's error body (`message`, and `token` on a decline). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** Query string of the parameters that have a value; empty ones are left out, as a form's blanks mean "any". */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Calls the public REST API with the session's api-key; the dashboard has no other way in. */
export async function call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Authorization: `api-key ${savedApiKey() ?? ''}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, String(parsed?.message ?? response.statusText), parsed ?? {});
  return parsed as T;
}

export const get = <T = any>(path: string, query?: Query) => call<T>('GET', `${path}${queryString(query)}`);
export const post = <T = any>(path: string, body: unknown = {}) => call<T>('POST', path, body);
export const patch = <T = any>(path: string, body: unknown) => call<T>('PATCH', path, body);
export const put = <T = any>(path: string, body: unknown) => call<T>('PUT', path, body);
export const remove = <T = any>(path: string) => call<T>('DELETE', path);

export interface Page<T> {
  data: T[];
  has_more: boolean;
  page?: number;
  total_entries?: number;
  total_pages?: number;
}
