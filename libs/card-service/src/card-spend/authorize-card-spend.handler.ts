import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { AuthorizeCardSpendCommand, CardSpendDecision, PresentedCardDetails } from '@ledger/contracts';
import {
  accountUsageAt,
  accountVelocityLimits,
  accountVelocityUsageDecider,
  accountVelocityUsageStreamId,
  type AccountVelocityLimit,
  authRuleDecider,
  authRuleStreamId,
  ExistingAuthRule,
  programAuthRulesDecider,
  programAuthRulesStreamId,
  authorizationChecks,
  AuthorizationStream,
  AuthorizeSpend,
  cardWouldApprove,
  decideAuthorizationAndTransaction,
  cardActivityFolder,
  cardDecider,
  CardEvent,
  NO_CARD_ACTIVITY,
  CardNotFound,
  cardStreamId,
  IssuedCard,
  partiallyApproved,
  PresentedDetails,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTime,
  transactionDecider,
  velocityUsageKey,
  transactionStreamId,
} from '@ledger/domain';
import { decideAcrossStreams, emptyFold, EventCodec, FaultPoints, foldOf, formatPosition, PipelineEnvironment, StreamReader } from '@ledger/event-store';
import { FAULT_POINTS, PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { AuthorizationStreamClient } from '../authorization-stream/authorization-stream-client';
import { ProgramSpend } from './program-spend';
import { authorizationToken } from './authorization-token';

/** Calls `ask` the first time only, and answers every later call with that first answer. */
function once<Args extends unknown[], Answer>(ask: (...args: Args) => Promise<Answer>): (...args: Args) => Promise<Answer> {
  let asked: Promise<Answer> | undefined;
  return (...args) => (asked ??= ask(...args));
}

/**
 * The program's auth rules, from its list and each rule's stream, with the folds they were read from:
 * the authorization's write checks their versions (writing nothing on them), so a decision is never
 * taken on a rule this process kept stale, and a rule changed meanwhile decides it again.
 */
async function authRulesOf(reader: StreamReader, programToken: string) {
  const listStream = programAuthRulesStreamId(programToken);
  const list = await reader.fold(programAuthRulesDecider, listStream);
  const folds = await Promise.all(list.state.authRuleTokens.map(async (token) => ({ streamId: authRuleStreamId(token), fold: await reader.fold(authRuleDecider, authRuleStreamId(token)) })));
  const rules = folds.map(({ fold }) => fold.state).filter((rule): rule is ExistingAuthRule => rule.status === 'existing' && rule.programToken === programToken);
  const checked = [
    { streamId: listStream, folder: programAuthRulesDecider, fold: list, events: [] },
    ...folds.map(({ streamId, fold }) => ({ streamId, folder: authRuleDecider, fold, events: [] })),
  ];
  return { rules, checked, list: { streamId: listStream, fold: list } };
}

/**
 * What the ACCOUNT-scoped velocity limits that run on this card have counted, from each version's
 * own stream (account-velocity-usage.ts); a program without such a limit reads nothing here.
 */
async function accountUsageOf(reader: StreamReader, limits: readonly AccountVelocityLimit[]) {
  return Promise.all(limits.map(async (limit) => ({ limit, streamId: accountVelocityUsageStreamId(limit.authRuleToken, limit.version), fold: await reader.fold(accountVelocityUsageDecider, accountVelocityUsageStreamId(limit.authRuleToken, limit.version)) })));
}

/**
 * An authorization: gathers what only the edges can answer (the card's secrets from the vault, the
 * program's totals from the read models, the program's own endpoint) and runs the domain's one
 * decision over the card, its new transaction and the program's version, written as one.
 */
@CommandHandler(AuthorizeCardSpendCommand)
export class AuthorizeCardSpendHandler implements ICommandHandler<AuthorizeCardSpendCommand, CardSpendDecision> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
    private readonly programSpend: ProgramSpend,
    private readonly stream: AuthorizationStreamClient,
    @Inject(FAULT_POINTS) private readonly faults: FaultPoints,
  ) {}

  async execute({ origin, cardToken, request }: AuthorizeCardSpendCommand): Promise<CardSpendDecision> {
    const programToken = origin.programToken;
    const cardStream = cardStreamId(cardToken);
    const programStream = programStreamId(programToken);
    const transactionStream = transactionStreamId(request.transactionToken);
    // The program's endpoint is asked once per authorization, however often a lost race decides it again.
    const askProgramOnce = once((stream: AuthorizationStream, card: IssuedCard, command: AuthorizeSpend, businessNow: () => Date) =>
      this.askProgram(stream, card, command, request.partialApprovalCapable ?? false, businessNow),
    );
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const [programFold, cardFold] = await Promise.all([reader.fold(programDecider, programStream), reader.fold(cardDecider, cardStream)]);
      this.faults.reached('folds-loaded');
      const program = programFold.state;
      const card = cardFold.state;
      if (program.status === 'absent') throw new ProgramNotFound(programToken);
      if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
      const { presented, partialApprovalCapable: _asked, tokenizationToken, ...requested } = request;
      const token = await authorizationToken(reader, tokenizationToken, cardToken, programToken);
      // Every rule reads the program's clock (business time); the program was just loaded, so it is known.
      const businessNow = () => programTime(program.clock, this.env.now());
      let facts = { ...requested, ...token.facts, cardToken, programToken };
      const breach = await this.programSpend.limitExceeded(program, facts.amount, businessNow());
      const outside = { globalLimitExceeded: breach?.result ?? null, ...(breach?.accountLimit ? { accountLimit: breach.accountLimit } : {}) };
      const authRules = await authRulesOf(reader, programToken);
      // A program without rules has no list stream, and a stream with no events is never kept, so
      // each authorization would read it again: its absence is kept like any fold, and the write
      // checks it (NO_STREAM), so a list another process created meanwhile refuses the write and
      // the decision is taken again on the list read anew. Kept here rather than by the fold cache
      // for every empty stream: requests for unknown cards and transactions would fill the cache
      // with absences and push out the folds it is for; rule lists are one per program.
      if (authRules.list.fold.version < 0) this.env.folds?.set(authRules.list.streamId, programAuthRulesDecider, authRules.list.fold);
      // The card's activity is a fold of its own, read only for a program with rules. It is read to
      // the stream's head after the card: were the card's kept fold older, the write's check of the
      // card's version refuses it and the decision is taken again on both read anew.
      const activity = authRules.rules.length === 0 ? NO_CARD_ACTIVITY : (await foldOf(this.env, cardActivityFolder, this.env.codec as EventCodec<CardEvent>, cardStream)).state;
      const counters = await accountUsageOf(reader, accountVelocityLimits(authRules.rules, { cardToken, accountToken: programToken }));
      const accountUsage = new Map(counters.map(({ limit, fold }) => [velocityUsageKey(limit.authRuleToken, limit.version), accountUsageAt(limit.parameters, fold.state, businessNow())]));
      let checks = { ...authorizationChecks(program, card, facts.merchant, this.presentedDetails(card, presented), outside, authRules.rules, activity, accountUsage), ...token.checks };
      this.faults.reached('program-spend-tallied');
      const command: AuthorizeSpend = { type: 'AuthorizeSpend', facts, checks };
      if (program.authorizationStream && cardWouldApprove(command, card, businessNow())) {
        const verdict = await askProgramOnce(program.authorizationStream, card, command, businessNow);
        if (verdict) {
          checks = { ...checks, streamDecline: verdict.decline };
          if (verdict.approvedAmount !== undefined) facts = { ...facts, ...partiallyApproved(facts, verdict.approvedAmount) };
        }
      }
      this.faults.reached('authorization-stream-asked');
      const now = businessNow();
      const noTransaction = emptyFold(transactionDecider);
      const decided = decideAuthorizationAndTransaction({ type: 'AuthorizeSpend', facts, checks }, card, noTransaction.state, now, counters.map(({ limit, fold }) => ({ limit, usage: fold.state })));
      // Each ACCOUNT limit's counter is written (an approval it counts) or checked in the same write:
      // an authorization of another card that counted meanwhile refuses this one, decided again on
      // the count with it. The usage was taken at businessNow() above; `now` is later, never earlier.
      const counted = counters.map(({ streamId, fold }, i) => ({ streamId, folder: accountVelocityUsageDecider, fold, events: decided.counted[i] }));
      return {
        now,
        result: decided.card,
        // One write: the card's decision, the transaction it opens, and the program version the checks were taken on.
        streams: [
          { streamId: cardStream, folder: cardDecider, fold: cardFold, events: decided.card },
          { streamId: transactionStream, folder: transactionDecider, fold: noTransaction, events: decided.transaction, mustBeNew: true },
          { streamId: programStream, folder: programDecider, fold: programFold, events: [] },
          // The program's rules (and its list, absent for a program that never had one), only checked.
          ...authRules.checked,
          ...counted,
          // The wallet token it came through, when one: only checked.
          ...token.checked,
        ],
      };
    });
    if (!outcome.position) throw new Error(`Card ${cardToken} recorded no authorization decision`);
    const position = formatPosition(outcome.position);
    for (const event of outcome.result) {
      if (event.type === 'CardAuthorizationApproved') return { result: 'APPROVED', facts: event.data, position };
      if (event.type === 'CardAuthorizationDeclined') {
        const { reason, ...facts } = event.data;
        return { result: reason, facts, position };
      }
    }
    throw new Error(`Card ${cardToken} recorded no authorization decision`);
  }

  /** The program's own authorization endpoint, asked with the authorization as Lithic's ASA sends it. */
  private askProgram(stream: AuthorizationStream, card: IssuedCard, command: AuthorizeSpend, partialApprovalCapable: boolean, businessNow: () => Date) {
    const { facts } = command;
    return this.stream.ask(
      { url: stream.url, timeoutMs: stream.timeoutMs, secret: this.vault.decrypt(stream.secretSealed) },
      {
        token: facts.transactionToken,
        status: 'AUTHORIZATION',
        amount: facts.amount,
        merchant_amount: facts.merchantAmount,
        merchant_currency: facts.merchantCurrency,
        merchant: {
          acceptor_id: facts.merchant.acceptorId,
          city: facts.merchant.city,
          country: facts.merchant.country,
          descriptor: facts.merchant.descriptor,
          mcc: facts.merchant.mcc,
          state: facts.merchant.state,
        },
        card: {
          token: card.cardToken,
          last_four: card.lastFour,
          memo: card.memo,
          state: card.state,
          type: card.cardType,
          spend_limit: card.spendLimit,
          spend_limit_duration: card.spendLimitDuration,
          hostname: card.hostname,
        },
        partial_approval_capable: partialApprovalCapable,
        created: businessNow().toISOString(),
      },
    );
  }

  /** The card's secrets the presented details are compared with, read where the vault is. */
  private presentedDetails(card: IssuedCard, presented: PresentedCardDetails): PresentedDetails {
    // The CVV is derived from PAN and the card's own expiry, never stored.
    const cvv = presented.cvv === undefined ? null : { presented: presented.cvv, cards: this.vault.cvv(this.vault.decrypt(card.panEncrypted), card.expMonth, card.expYear) };
    return {
      cvv,
      expMonth: presented.expMonth,
      expYear: presented.expYear,
      pinHash: presented.pin === undefined ? null : this.vault.pinHash(card.cardToken, presented.pin),
    };
  }
}
