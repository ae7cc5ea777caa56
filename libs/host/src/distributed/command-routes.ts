import { Provider, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { COMMAND_HANDLER_METADATA, QUERY_HANDLER_METADATA } from '@nestjs/cqrs/dist/decorators/constants';

/** A command or query class, the role whose module handles it, and the name it travels under. */
export interface MessageRoute {
  readonly name: string;
  readonly type: Type;
  readonly kind: 'command' | 'query';
  readonly role: string;
}

/**
 * Who handles what, read from the role modules themselves: every provider of a role's module that is
 * a @CommandHandler or @QueryHandler names its message class. Nothing to keep in step by hand: a new
 * handler in card-service is routed to card-service the moment it is in the module.
 */
export function messageRoutes(roleModules: Readonly<Record<string, Type>>): Map<string, MessageRoute> {
  const routes = new Map<string, MessageRoute>();
  for (const [role, module] of Object.entries(roleModules)) {
    const providers: Provider[] = Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) ?? [];
    for (const provider of providers) {
      const handler = typeof provider === 'function' ? provider : 'useClass' in provider ? provider.useClass : null;
      if (!handler) continue;
      for (const [kind, key] of [['command', COMMAND_HANDLER_METADATA], ['query', QUERY_HANDLER_METADATA]] as const) {
        const type: Type | undefined = Reflect.getMetadata(key, handler);
        if (!type) continue;
        const existing = routes.get(type.name);
        if (existing && existing.type !== type) throw new Error(`Two message classes are named ${type.name}; names must be unique to travel between processes`);
        if (existing && existing.role !== role) throw new Error(`${type.name} is handled by both ${existing.role} and ${role}`);
        routes.set(type.name, { name: type.name, type, kind, role });
      }
    }
  }
  return routes;
}

/** The subject a role's handlers listen on; its replicas share one queue group, so each message reaches one of them. */
export function roleSubject(prefix: string, role: string): string {
  return `${prefix}.commands.${role}`;
}

export function roleQueue(prefix: string, role: string): string {
  return `${prefix}.${role}`;
}
