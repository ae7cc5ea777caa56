import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';

/** Where @nestjs/swagger lists a DTO's documented properties (DECORATORS.API_MODEL_PROPERTIES_ARRAY). */
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';

/** What a route handler declares it reads from a request, from its own parameter decorators. */
export interface DeclaredInputs {
  /** The query parameters it takes: the documented properties of its @Query() DTO, or the names of @Query('name'). */
  readonly queryKeys: ReadonlySet<string>;
  /** Its @Body() DTO, or null when it takes no body. */
  readonly body: Function | null;
}

const cache = new WeakMap<Function, DeclaredInputs>();

/**
 * Read from Nest's route-argument metadata (`@Query()`, `@Body()` and the design types TypeScript
 * records for the handler's parameters), so whatever a handler declares is exactly what is accepted.
 */
export function declaredInputs(controller: Function, handler: Function): DeclaredInputs {
  let inputs = cache.get(handler);
  if (!inputs) {
    inputs = readInputs(controller, handler.name);
    cache.set(handler, inputs);
  }
  return inputs;
}

function readInputs(controller: Function, method: string): DeclaredInputs {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as Function[];
  const queryKeys = new Set<string>();
  let body: Function | null = null;
  for (const [key, { index, data }] of Object.entries(args)) {
    const [paramtype] = key.split(':');
    if (paramtype === String(RouteParamtypes.QUERY)) {
      if (typeof data === 'string') queryKeys.add(data);
      else for (const property of documentedProperties(types[index])) queryKeys.add(property);
    } else if (paramtype === String(RouteParamtypes.BODY)) {
      body = types[index] ?? Object;
    }
  }
  return { queryKeys, body };
}

function documentedProperties(dto: Function | undefined): string[] {
  if (!dto?.prototype) return [];
  return ((Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? []) as string[]).map((key) => key.replace(/^:/, ''));
}
