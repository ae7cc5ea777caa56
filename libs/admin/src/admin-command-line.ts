import { parseArgs } from 'node:util';

/** A command line the CLI cannot run as given: the process prints it with the usage and exits 2. */
export class AdminUsageError extends Error {}

/**
 * Every command with the flags it takes (as node:util's parseArgs reads them) and how many plain
 * arguments may follow it. A flag a command does not list is refused rather than ignored, so a typo
 * such as `verify --disgest FILE` cannot quietly run a different check.
 */
const ADMIN_COMMANDS = {
  'create-program': { flags: {}, arguments: Infinity },
  'list-programs': { flags: {}, arguments: 0 },
  'issue-key': { flags: {}, arguments: 1 },
  'revoke-key': { flags: {}, arguments: 2 },
  verify: {
    flags: { digest: { type: 'string' }, file: { type: 'string' }, proof: { type: 'string' }, key: { type: 'string', multiple: true } },
    arguments: 0,
  },
  digest: { flags: { out: { type: 'string' } }, arguments: 0 },
  export: { flags: { program: { type: 'string' }, out: { type: 'string' }, digest: { type: 'string' } }, arguments: 0 },
  replay: { flags: { feed: { type: 'boolean' } }, arguments: 0 },
  listen: {
    flags: { 'api-key': { type: 'string' }, 'forward-to': { type: 'string' }, events: { type: 'string' }, 'base-url': { type: 'string' } },
    arguments: 0,
  },
} as const;

export type AdminCommand = keyof typeof ADMIN_COMMANDS;

export function isAdminCommand(name: string | undefined): name is AdminCommand {
  return name !== undefined && Object.hasOwn(ADMIN_COMMANDS, name);
}

/**
 * Reads `args` (the command's name first) against that command's flags: answers the flags' values
 * and the plain arguments. An unknown flag, a flag without its value, a value given to a switch or
 * one argument too many is an AdminUsageError naming it.
 */
export function readCommandLine<C extends AdminCommand>(command: C, args: readonly string[]) {
  const { flags, arguments: allowed } = ADMIN_COMMANDS[command];
  let parsed;
  try {
    parsed = parseArgs({ args: args.slice(1), options: flags as (typeof ADMIN_COMMANDS)[C]['flags'], strict: true, allowPositionals: true });
  } catch (error) {
    // Node makes parseArgs's errors in its own realm, not a test sandbox's: read by shape, not instanceof.
    const message = (error as { message?: unknown })?.message;
    throw new AdminUsageError(`${command}: ${typeof message === 'string' ? message : String(error)}`);
  }
  if (parsed.positionals.length > allowed) throw new AdminUsageError(`${command} does not take ${parsed.positionals.slice(allowed).join(' ')}`);
  return parsed;
}

/** Checks a whole command line before anything starts: the command exists and its flags read. */
export function checkCommandLine(args: readonly string[]): void {
  const [command] = args;
  if (!isAdminCommand(command)) throw new AdminUsageError(command ? `Unknown command ${command}` : 'No command given');
  readCommandLine(command, args);
}
