import { Type } from '@nestjs/common';
import { CommandBus, CommandHandlerNotFoundException, CqrsModule, QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import * as contracts from '@ledger/contracts';
import { HANDLING_ROLES, MESSAGE_ROUTES, MessageClass } from '@ledger/contracts';
import { commandRoleModules } from '@ledger/host';

/**
 * MESSAGE_ROUTES (libs/contracts) is written by hand; this spec holds it to what the role modules
 * really register. Each role's module is instantiated alone and its own CommandBus and QueryBus are
 * asked, message class by message class, whether they have a handler: every handled message is in the
 * table under that role, and nothing in the table goes unhandled.
 *
 * The buses register stand-ins that answer with the handler's class instead of running it, so no
 * handler runs and the module's dependencies can be empty mocks.
 */

type HandlerWrapper = Parameters<CommandBus['bind']>[0];

interface Handled {
  /** Message class -> the handler class the bus runs for it. */
  readonly commands: Map<MessageClass, Type>;
  readonly queries: Map<MessageClass, Type>;
  /** Every handler the buses registered, matched to a message class or not. */
  readonly handlers: Type[];
}

/** The classes a message could be: every class the contracts library exports. */
const candidates = (Object.values(contracts) as unknown[]).filter((value): value is MessageClass => typeof value === 'function' && value.prototype !== undefined);

async function handledBy(module: Type): Promise<Handled> {
  const handlers: Type[] = [];
  const standIn = (handler: HandlerWrapper) => {
    handlers.push(handler.metatype as Type);
    return { isDependencyTreeStatic: () => true, instance: { execute: async () => handler.metatype } } as unknown as HandlerWrapper;
  };
  const bindCommand = CommandBus.prototype.bind;
  const bindQuery = QueryBus.prototype.bind;
  const commandSpy = jest.spyOn(CommandBus.prototype, 'bind').mockImplementation(function (this: CommandBus, handler, id) {
    bindCommand.call(this, standIn(handler), id);
  });
  const querySpy = jest.spyOn(QueryBus.prototype, 'bind').mockImplementation(function (this: QueryBus, handler, id) {
    bindQuery.call(this, standIn(handler as HandlerWrapper) as never, id);
  });
  const testing = await Test.createTestingModule({ imports: [module] })
    .useMocker(() => ({}))
    .compile();
  try {
    // What Nest does on bootstrap for @nestjs/cqrs, without starting the module's own loops.
    testing.get(CqrsModule, { strict: false }).onApplicationBootstrap();
    const commandBus = testing.get(CommandBus, { strict: false });
    const queryBus = testing.get(QueryBus, { strict: false });
    return {
      commands: await probe(candidates, (message) => commandBus.execute(message), CommandHandlerNotFoundException),
      queries: await probe(candidates, (message) => queryBus.execute(message), QueryHandlerNotFoundException),
      handlers,
    };
  } finally {
    commandSpy.mockRestore();
    querySpy.mockRestore();
    await testing.close();
  }
}

/** Each candidate the bus has a handler for, with that handler's class (what the stand-in answers). */
async function probe(types: readonly MessageClass[], execute: (message: object) => Promise<unknown>, notFound: new (...args: never[]) => Error): Promise<Map<MessageClass, Type>> {
  const found = new Map<MessageClass, Type>();
  for (const type of types) {
    try {
      found.set(type, (await execute(Object.create(type.prototype) as object)) as Type);
    } catch (error) {
      if (!(error instanceof notFound)) throw error;
    }
  }
  return found;
}

const routedTo = (role: string, kind: 'command' | 'query') => new Set(MESSAGE_ROUTES.filter((route) => route.role === role && route.kind === kind).map((route) => route.type));

describe('message routes', () => {
  const modules = commandRoleModules();

  it.each(HANDLING_ROLES)('list exactly the messages the %s module handles', async (role) => {
    const handled = await handledBy(modules[role]);
    // Not vacuous: every role handles commands.
    expect(handled.commands.size).toBeGreaterThan(0);
    expect(new Set(handled.commands.keys())).toEqual(routedTo(role, 'command'));
    expect(new Set(handled.queries.keys())).toEqual(routedTo(role, 'query'));
    // A handler of a message class the contracts library does not export would have escaped the probe.
    expect(new Set(handled.handlers)).toEqual(new Set([...handled.commands.values(), ...handled.queries.values()]));
  });

  it('give every message one stable name of its own', () => {
    const names = MESSAGE_ROUTES.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(MESSAGE_ROUTES.map((route) => route.type)).size).toBe(MESSAGE_ROUTES.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(-[a-z]+)*\.[a-z]+(-[a-z]+)*$/);
  });
});
