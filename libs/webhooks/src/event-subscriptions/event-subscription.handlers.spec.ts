import { CardVault } from '@ledger/card-vault';
import {
  CreateEventSubscriptionCommand,
  DeleteEventSubscriptionCommand,
  MarkEventSubscriptionFailingCommand,
  MarkEventSubscriptionRecoveredCommand,
  RotateEventSubscriptionSecretCommand,
  UpdateEventSubscriptionCommand,
  type CommandAccepted,
} from '@ledger/contracts';
import {
  EndpointUrlInvalid,
  EndpointUrlNotAllowed,
  EventSubscriptionNotFound,
  eventSubscriptionStreamId,
  UnknownWebhookEventType,
  type EventSubscriptionEvent,
} from '@ledger/domain';
import { EgressGuard, EgressPolicy } from '@ledger/egress';
import { commandOrigin, ledgerHandlerSpecification } from '@ledger/runtime/test';
import { scriptedResolver } from '@ledger/test-support';
import {
  CreateEventSubscriptionHandler,
  DeleteEventSubscriptionHandler,
  MarkEventSubscriptionFailingHandler,
  MarkEventSubscriptionRecoveredHandler,
  RotateEventSubscriptionSecretHandler,
  UpdateEventSubscriptionHandler,
} from './event-subscription.handlers';

const vault = new CardVault(Buffer.alloc(32, 7));
/** The production policy (public addresses only) with a resolver that answers as DNS would for these names. */
const egress = new EgressGuard(new EgressPolicy(), scriptedResolver({ 'hooks.acme.example': [['93.184.216.34']], 'internal.acme.example': [['192.168.1.20']] }));

const PROGRAM = 'prog_acme';
const SUBSCRIPTION = 'sub_1';
const STREAM = eventSubscriptionStreamId(SUBSCRIPTION);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const created: EventSubscriptionEvent = {
  type: 'EventSubscriptionCreated',
  data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, url: 'https://hooks.acme.example/in', description: 'all', eventTypes: [], disabled: false, secretSealed: vault.encrypt('whsec_first'), created: NOW },
};
const failing: EventSubscriptionEvent = { type: 'EventSubscriptionMarkedFailing', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, messageId: 'msg_1', at: NOW } };
const deleted: EventSubscriptionEvent = { type: 'EventSubscriptionDeleted', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, at: NOW } };
const otherProgram = { ...origin, programToken: 'prog_other' };

describe('CreateEventSubscriptionHandler', () => {
  const create = ledgerHandlerSpecification({ handler: (env) => new CreateEventSubscriptionHandler(env, vault, egress), now: new Date(NOW) });

  it('records the subscription with its secret sealed, event types de-duplicated, and answers the secret in clear once', async () => {
    const { result, recorded } = await create
      .when((handler) => handler.execute(new CreateEventSubscriptionCommand(origin, { url: 'https://hooks.acme.example/in', eventTypes: ['card.created', 'card.updated', 'card.created'] })))
      .then({
        [eventSubscriptionStreamId(create.id(1))]: [
          {
            type: 'EventSubscriptionCreated',
            data: { subscriptionToken: create.id(1), programToken: PROGRAM, url: 'https://hooks.acme.example/in', description: '', eventTypes: ['card.created', 'card.updated'], disabled: false, secretSealed: expect.stringMatching(/^v1\./), created: NOW },
          },
        ],
      });

    expect(result).toEqual({ token: create.id(1), position: expect.stringMatching(/^\d+\/\d+$/), secret: expect.stringMatching(/^whsec_/) });
    expect(vault.decrypt((recorded[0].data as { secretSealed: string }).secretSealed)).toBe(result.secret);
  });

  it('refuses an event type webhooks do not have', async () => {
    await create.when((handler) => handler.execute(new CreateEventSubscriptionCommand(origin, { url: 'https://hooks.acme.example/in', eventTypes: ['card.deleted'] }))).thenThrows(UnknownWebhookEventType, { field: 'event_types' });
  });

  it('refuses a malformed URL, and one that leads to an internal address, literally or through its name', async () => {
    await create.when((handler) => handler.execute(new CreateEventSubscriptionCommand(origin, { url: 'hooks.acme.example/in' }))).thenThrows(EndpointUrlInvalid, { field: 'url' });
    await create.when((handler) => handler.execute(new CreateEventSubscriptionCommand(origin, { url: 'http://169.254.169.254/latest' }))).thenThrows(EndpointUrlNotAllowed);
    await create.when((handler) => handler.execute(new CreateEventSubscriptionCommand(origin, { url: 'https://internal.acme.example/in' }))).thenThrows(EndpointUrlNotAllowed);
  });
});

describe('UpdateEventSubscriptionHandler', () => {
  const update = ledgerHandlerSpecification({ handler: (env) => new UpdateEventSubscriptionHandler(env, egress) });

  it('records what changed', async () => {
    const { result } = await update
      .given({ [STREAM]: [created] })
      .when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { url: 'https://93.184.216.34/in', description: 'all', eventTypes: ['card_transaction.updated'], disabled: true })))
      .then({ [STREAM]: [{ type: 'EventSubscriptionUpdated', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, url: 'https://93.184.216.34/in', eventTypes: ['card_transaction.updated'], disabled: true } }] });

    expect(result).toEqual({ token: SUBSCRIPTION, position: expect.any(String) });
  });

  it('records nothing when nothing changes', async () => {
    await update.given({ [STREAM]: [created] }).when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { url: 'https://hooks.acme.example/in', disabled: false }))).then({});
  });

  it('refuses a subscription that does not exist, is deleted or is another program\'s', async () => {
    await update.when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { disabled: true }))).thenThrows(EventSubscriptionNotFound, { subscriptionToken: SUBSCRIPTION });
    await update.given({ [STREAM]: [created, deleted] }).when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { disabled: true }))).thenThrows(EventSubscriptionNotFound);
    await update.given({ [STREAM]: [created] }).when((handler) => handler.execute(new UpdateEventSubscriptionCommand(otherProgram, SUBSCRIPTION, { disabled: true }))).thenThrows(EventSubscriptionNotFound);
  });

  it('refuses an unknown event type, and a URL that leads to an internal address', async () => {
    await update.given({ [STREAM]: [created] }).when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { eventTypes: ['everything'] }))).thenThrows(UnknownWebhookEventType);
    await update.given({ [STREAM]: [created] }).when((handler) => handler.execute(new UpdateEventSubscriptionCommand(origin, SUBSCRIPTION, { url: 'http://10.1.2.3/in' }))).thenThrows(EndpointUrlNotAllowed);
  });
});

describe('RotateEventSubscriptionSecretHandler', () => {
  const rotate = ledgerHandlerSpecification({ handler: (env) => new RotateEventSubscriptionSecretHandler(env, vault), now: new Date(NOW) });

  it('records the new secret sealed and answers it in clear once', async () => {
    const { result, recorded } = await rotate
      .given({ [STREAM]: [created] })
      .when((handler) => handler.execute(new RotateEventSubscriptionSecretCommand(origin, SUBSCRIPTION)))
      .then({ [STREAM]: [{ type: 'EventSubscriptionSecretRotated', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, secretSealed: expect.stringMatching(/^v1\./), at: NOW } }] });

    expect(result).toEqual({ token: SUBSCRIPTION, position: expect.any(String), secret: expect.stringMatching(/^whsec_/) });
    expect(result.secret).not.toBe('whsec_first');
    expect(vault.decrypt((recorded[0].data as { secretSealed: string }).secretSealed)).toBe(result.secret);
  });

  it('refuses a subscription that is not the program\'s', async () => {
    await rotate.given({ [STREAM]: [created] }).when((handler) => handler.execute(new RotateEventSubscriptionSecretCommand(otherProgram, SUBSCRIPTION))).thenThrows(EventSubscriptionNotFound);
  });
});

describe('DeleteEventSubscriptionHandler', () => {
  const remove = ledgerHandlerSpecification({ handler: (env): { execute(command: DeleteEventSubscriptionCommand): Promise<CommandAccepted> } => new DeleteEventSubscriptionHandler(env), now: new Date(NOW) });

  it('records the deletion', async () => {
    const { result } = await remove
      .given({ [STREAM]: [created] })
      .when((handler) => handler.execute(new DeleteEventSubscriptionCommand(origin, SUBSCRIPTION)))
      .then({ [STREAM]: [{ type: 'EventSubscriptionDeleted', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, at: NOW } }] });

    expect(result).toEqual({ token: SUBSCRIPTION, position: expect.any(String) });
  });

  it('refuses a subscription already deleted, or another program\'s', async () => {
    await remove.given({ [STREAM]: [created, deleted] }).when((handler) => handler.execute(new DeleteEventSubscriptionCommand(origin, SUBSCRIPTION))).thenThrows(EventSubscriptionNotFound);
    await remove.given({ [STREAM]: [created] }).when((handler) => handler.execute(new DeleteEventSubscriptionCommand(otherProgram, SUBSCRIPTION))).thenThrows(EventSubscriptionNotFound);
  });
});

describe("MarkEventSubscriptionFailingHandler and MarkEventSubscriptionRecoveredHandler (the dispatcher's)", () => {
  type Handler = { execute(command: MarkEventSubscriptionFailingCommand | MarkEventSubscriptionRecoveredCommand): Promise<CommandAccepted> };
  const markFailing = ledgerHandlerSpecification({ handler: (env): Handler => new MarkEventSubscriptionFailingHandler(env), now: new Date(NOW) });
  const markRecovered = ledgerHandlerSpecification({ handler: (env): Handler => new MarkEventSubscriptionRecoveredHandler(env), now: new Date(NOW) });

  it('marks a healthy subscription failing, naming the message that ran out of retries', async () => {
    await markFailing
      .given({ [STREAM]: [created] })
      .when((handler) => handler.execute(new MarkEventSubscriptionFailingCommand(origin, SUBSCRIPTION, 'msg_1')))
      .then({ [STREAM]: [{ type: 'EventSubscriptionMarkedFailing', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, messageId: 'msg_1', at: NOW } }] });
  });

  it('marks a failing subscription recovered, naming the message delivered', async () => {
    await markRecovered
      .given({ [STREAM]: [created, failing] })
      .when((handler) => handler.execute(new MarkEventSubscriptionRecoveredCommand(origin, SUBSCRIPTION, 'msg_2')))
      .then({ [STREAM]: [{ type: 'EventSubscriptionRecovered', data: { subscriptionToken: SUBSCRIPTION, programToken: PROGRAM, messageId: 'msg_2', at: NOW } }] });
  });

  it('records nothing, and refuses nothing, when there is nothing to mark: already so, deleted, missing or another program\'s', async () => {
    await markFailing.given({ [STREAM]: [created, failing] }).when((handler) => handler.execute(new MarkEventSubscriptionFailingCommand(origin, SUBSCRIPTION, 'msg_2'))).then({});
    await markFailing.given({ [STREAM]: [created, deleted] }).when((handler) => handler.execute(new MarkEventSubscriptionFailingCommand(origin, SUBSCRIPTION, 'msg_2'))).then({});
    await markFailing.when((handler) => handler.execute(new MarkEventSubscriptionFailingCommand(origin, SUBSCRIPTION, 'msg_2'))).then({});
    await markRecovered.given({ [STREAM]: [created] }).when((handler) => handler.execute(new MarkEventSubscriptionRecoveredCommand(origin, SUBSCRIPTION, 'msg_2'))).then({});
    await markRecovered.given({ [STREAM]: [created, failing] }).when((handler) => handler.execute(new MarkEventSubscriptionRecoveredCommand(otherProgram, SUBSCRIPTION, 'msg_2'))).then({});
  });
});
