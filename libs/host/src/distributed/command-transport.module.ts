import {
  Controller,
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
  ServiceUnavailableException,
  Type,
} from '@nestjs/common';
import { CommandBus, CommandHandler, CqrsModule, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ClientNats, MessagePattern, Payload } from '@nestjs/microservices';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { SkipThrottle } from '@nestjs/throttler';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { Readiness } from '@ledger/gateway';
import { MessageSeal, MessageUnsealable } from '@ledger/card-vault';
import { MessageRoute } from '@ledger/contracts';
import { DomainError } from '@ledger/domain';
import { roleQueue, roleSubject, routesByName } from './command-routes';
import { fromWire, openMessage, rehydrateError, SealedMessage, sealMessage, serializeError, toWire, WireError } from './wire';

/** How a process reaches the command handlers of the roles it does not run. */
export interface CommandTransportSettings {
  readonly natsUrl: string;
  readonly subjectPrefix: string;
  readonly commandTimeoutMs: number;
}

export interface CommandTransportOptions extends CommandTransportSettings {
  /** The roles this process runs. */
  readonly localRoles: readonly string[];
  /** Seals every command and reply (derived from CARD_DATA_KEY, which every process shares). */
  readonly seal: MessageSeal;
}

/** What travels, sealed: the message's route name (MESSAGE_ROUTES) and its wire-encoded fields. */
export interface CommandMessage {
  readonly name: string;
  readonly payload: unknown;
}

/** The answer, sealed too. */
export type CommandReply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: WireError };

/**
 * The one answer that travels unsealed: the command could not be opened (processes with different
 * CARD_DATA_KEYs), so no reply could be opened either. It carries only the reason.
 */
export interface CommandRefused {
  readonly refused: string;
}

/** Associated data of the seals: a command for one role's subject, and the reply to it. */
const commandContext = (subject: string) => `command ${subject}`;
const replyContext = (subject: string) => `reply ${subject}`;

const TRANSPORT_OPTIONS = Symbol('COMMAND_TRANSPORT_OPTIONS');
const NATS_CLIENT_NAME = 'card-ledger';

interface ResolvedTransport extends CommandTransportOptions {
  readonly routes: Map<string, MessageRoute>;
}

/**
 * The gateway's (and any process's) way to the handlers it does not have: one NATS request per
 * command, to the owning role's subject, answered by exactly one of that role's replicas (queue group).
 * The answer is the handler's result, or its error, rebuilt here as the same class.
 */
@Injectable()
export class CommandForwarder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CommandTransport');
  private client: ClientNats | null = null;
  private status = 'disconnected';

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly options: ResolvedTransport,
    private readonly readiness: Readiness,
  ) {}

  get needed(): boolean {
    return [...this.options.routes.values()].some((route) => !this.options.localRoles.includes(route.role));
  }

  async onModuleInit(): Promise<void> {
    if (!this.needed) return;
    const client = new ClientNats({
      servers: this.options.natsUrl.split(','),
      name: `${NATS_CLIENT_NAME}:${this.options.localRoles.join('+')}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      waitOnFirstConnect: true,
      // Replies come back under the ledger's prefix too: all of its traffic is `<prefix>.>`.
      inboxPrefix: `${this.options.subjectPrefix}.inbox`,
    } as ConstructorParameters<typeof ClientNats>[0]);
    client.status.subscribe((status) => (this.status = String(status)));
    await client.connect();
    this.status = 'connected';
    this.client = client;
    this.readiness.addCheck('nats-client', () => this.status === 'connected');
    this.logger.log(`forwarding commands of ${this.remoteRoles().join(', ')} over NATS (${this.options.subjectPrefix}.commands.*)`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.close();
    this.client = null;
  }

  private remoteRoles(): string[] {
    return [...new Set([...this.options.routes.values()].map((route) => route.role))].filter((role) => !this.options.localRoles.includes(role));
  }

  async forward(route: MessageRoute, message: object): Promise<unknown> {
    if (!this.client) throw new ServiceUnavailableException(`The ${route.role} cannot be reached: the command transport is not connected`);
    const subject = roleSubject(this.options.subjectPrefix, route.role);
    const command: CommandMessage = { name: route.name, payload: toWire(message) };
    const request = sealMessage(this.options.seal, command, commandContext(subject));
    let answer: SealedMessage | CommandRefused;
    try {
      answer = await firstValueFrom(
        this.client.send<SealedMessage | CommandRefused, SealedMessage>(subject, request).pipe(timeout({ first: this.options.commandTimeoutMs })),
      );
    } catch (error) {
      throw this.unavailable(route, error);
    }
    // Either is a misconfiguration, not an outage: a fault (500), logged with the reason.
    if ('refused' in answer) throw new Error(`The ${route.role} could not open ${route.name}: ${answer.refused}`);
    const reply = openMessage<CommandReply>(this.options.seal, answer, replyContext(subject));
    if (reply.ok) return fromWire(reply.result);
    throw rehydrateError(reply.error, `${route.role}: ${route.name}`);
  }

  /** 503 for every transport failure: none of them is the caller's fault, and each may pass. */
  private unavailable(route: MessageRoute, error: unknown): ServiceUnavailableException {
    if (error instanceof EmptyResponseException) {
      return new ServiceUnavailableException(`No ${route.role} is running to take this request; retry later`);
    }
    if (error instanceof TimeoutError) {
      this.logger.warn(`${route.name}: no answer from ${route.role} within ${this.options.commandTimeoutMs} ms`);
      return new ServiceUnavailableException(`The ${route.role} did not answer within ${this.options.commandTimeoutMs} ms; the change may or may not have been recorded`);
    }
    this.logger.warn(`${route.name}: ${route.role} could not be reached: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
    return new ServiceUnavailableException(`The ${route.role} could not be reached; retry later`);
  }
}

/** Runs a message that arrived over the transport on this process's own buses. */
@Injectable()
export class CommandExecutor {
  private readonly logger = new Logger('CommandTransport');

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly options: ResolvedTransport,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Opens a sealed command that arrived on `subject`, runs it and seals the reply. */
  async execute(sealed: unknown, subject: string): Promise<SealedMessage | CommandRefused> {
    let message: CommandMessage;
    try {
      message = openMessage<CommandMessage>(this.options.seal, sealed, commandContext(subject));
    } catch (error) {
      if (!(error instanceof MessageUnsealable)) throw error;
      this.logger.error(`a command on ${subject} was refused: ${error.message}`);
      return { refused: error.message };
    }
    return sealMessage(this.options.seal, await this.run(message), replyContext(subject));
  }

  private async run(message: CommandMessage): Promise<CommandReply> {
    const route = this.options.routes.get(message?.name);
    try {
      if (!route || !this.options.localRoles.includes(route.role)) throw new Error(`No handler here for ${String(message?.name)}`);
      // Rebuilt as an instance of its class (the buses find handlers by class) from exactly the fields it was sent with.
      const instance = Object.assign(Object.create(route.type.prototype) as object, fromWire(message.payload) as object);
      const result = route.kind === 'command' ? await this.commands.execute(instance) : await this.queries.execute(instance);
      return { ok: true, result: toWire(result) };
    } catch (error) {
      if (!(error instanceof DomainError)) this.logger.error(`${String(message?.name)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { ok: false, error: serializeError(error) };
    }
  }
}

/**
 * The listening side for one role: a @MessagePattern on the role's subject in the role's queue group.
 * Built per role because the subject carries the configured prefix.
 */
function listenerFor(subject: string, queue: string): Type {
  @SkipThrottle({ second: true, minute: true })
  @Controller()
  class CommandListener {
    constructor(private readonly executor: CommandExecutor) {}

    @MessagePattern(subject, { queue })
    handle(@Payload() message: unknown): Promise<SealedMessage | CommandRefused> {
      return this.executor.execute(message, subject);
    }
  }
  Object.defineProperty(CommandListener, 'name', { value: `CommandListener(${subject})` });
  return CommandListener;
}

/** A stand-in handler for a message whose real handler lives in another process. */
function forwarderFor(route: MessageRoute): Type {
  const type = route.type as Type;
  const decorate = route.kind === 'command' ? CommandHandler(type) : QueryHandler(type);
  @decorate
  class Forwarder {
    constructor(private readonly forwarder: CommandForwarder) {}

    execute(message: object): Promise<unknown> {
      return this.forwarder.forward(route, message);
    }
  }
  Object.defineProperty(Forwarder, 'name', { value: `Forward(${route.name})` });
  return Forwarder;
}

/**
 * Distributed mode: for each role this process runs, a listener; for each command (or query) whose
 * handler module is not loaded here, a forwarding handler on the same buses. Controllers and handlers
 * are untouched and cannot tell the difference.
 */
@Module({})
export class CommandTransportModule {
  static forRoot(options: CommandTransportOptions): DynamicModule {
    const routes = routesByName();
    const resolved: ResolvedTransport = { ...options, routes };
    const listening = [...new Set([...routes.values()].map((route) => route.role))].filter((role) => options.localRoles.includes(role));
    const forwarded = [...routes.values()].filter((route) => !options.localRoles.includes(route.role));
    return {
      module: CommandTransportModule,
      imports: [CqrsModule],
      controllers: listening.map((role) => listenerFor(roleSubject(options.subjectPrefix, role), roleQueue(options.subjectPrefix, role))),
      providers: [{ provide: TRANSPORT_OPTIONS, useValue: resolved }, CommandForwarder, CommandExecutor, ...forwarded.map(forwarderFor)],
      exports: [CommandForwarder],
    };
  }

  /** Whether a process with these roles takes messages from the transport (and so needs a NATS server). */
  static listens(options: Pick<CommandTransportOptions, 'localRoles'>): boolean {
    return [...routesByName().values()].some((route) => options.localRoles.includes(route.role));
  }
}
