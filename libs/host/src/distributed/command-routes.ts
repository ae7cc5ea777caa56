import { MESSAGE_ROUTES, MessageRoute } from '@ledger/contracts';

/**
 * The routes as the transport looks them up: by the stable name a message arrives under. The table
 * itself (libs/contracts, MESSAGE_ROUTES) is the only source; nothing is read off the handlers.
 */
export function routesByName(routes: readonly MessageRoute[] = MESSAGE_ROUTES): Map<string, MessageRoute> {
  return new Map(routes.map((route) => [route.name, route]));
}

/** The subject a role's handlers listen on; its replicas share one queue group, so each message reaches one of them. */
export function roleSubject(prefix: string, role: string): string {
  return `${prefix}.commands.${role}`;
}

export function roleQueue(prefix: string, role: string): string {
  return `${prefix}.${role}`;
}
