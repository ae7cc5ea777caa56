import { Body, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { CallingProgram } from '@ledger/auth';
import type { AuthorizationPos, CreditAuthorizationKind, Merchant } from '@ledger/domain';
import { type CommandOrigin, SettlementAccepted, SettlementModel, SimulateAuthorizationCommand, SimulateAuthorizeRequest, SimulateClearingRequest, SimulateCreditAuthorizationAdviceRequest, ExpireAuthorizationCommand, SimulateReturnCommand, SimulateReturnRequest, SimulateReturnReversalCommand, SimulateReturnReversalRequest, SimulateSettlementCommand, SimulateSettleRequest, SimulateTransactionAmountRequest, SimulateTransactionEventCommand, SimulateVoidRequest, SimulationResponse, TransactionAmountAction } from '@ledger/contracts';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { SimulatedWrites } from './simulated-writes';
import { ProgramApi, Route } from '../http/api-routes';
import { commandOrigin } from '../http/command-origin';
import { RequestInvalid } from '../http/errors';
import { AuthorizationDeclined } from './simulation-errors';

/** Defaults for merchant fields a simulated authorization leaves out. */
const DEFAULT_MCC = '5999';
const DEFAULT_COUNTRY = 'USA';
const DEFAULT_CURRENCY = 'USD';

/** What a 5xx names when a movement of a transaction could not be recorded. */
const SIMULATION_NAMES: Record<TransactionAmountAction, string> = { VOID: 'void', CLEARING: 'clearing', ADVICE: 'authorization advice' };

/** Lithic's name for a merchant field and ours may both be sent; if both are, they must agree. */
function alias(ours: string | undefined, lithic: string | undefined, names: string): string | undefined {
  if (ours !== undefined && lithic !== undefined && ours !== lithic) throw new RequestInvalid(`${names} name the same field and differ`);
  return ours ?? lithic;
}

/** The merchant a simulated authorization names, with the defaults for what it leaves out. */
function merchantOf(body: SimulateAuthorizeRequest): Merchant {
  return {
    acceptorId: body.merchant_acceptor_id ?? '',
    city: alias(body.city, body.merchant_acceptor_city, 'city and merchant_acceptor_city') ?? '',
    country: alias(body.country, body.merchant_acceptor_country, 'country and merchant_acceptor_country') ?? DEFAULT_COUNTRY,
    descriptor: body.descriptor,
    mcc: body.mcc ?? DEFAULT_MCC,
    state: alias(body.state, body.merchant_acceptor_state, 'state and merchant_acceptor_state') ?? '',
  };
}

/**
 * The point of sale's facts the request gave (extension fields, docs/decisions.md), as the
 * authorization records them: nothing at all when none was given, so such an authorization is
 * recorded exactly as before they existed. Cash is part of the amount, never more than it.
 */
function posOf(body: SimulateAuthorizeRequest): { pos?: AuthorizationPos } {
  if (body.cash_amount !== undefined && body.cash_amount > body.amount) throw new RequestInvalid('cash_amount must not be more than amount');
  const pos: AuthorizationPos = {
    ...(body.pan_entry_mode !== undefined ? { panEntryMode: body.pan_entry_mode } : {}),
    ...(body.wallet_type !== undefined ? { walletType: body.wallet_type } : {}),
    ...(body.cash_amount !== undefined ? { cashAmount: body.cash_amount } : {}),
  };
  return Object.keys(pos).length === 0 ? {} : { pos };
}

/** Spec section 4.1-4.4 plus authorization advice and settlement: sandbox only. */
@ProgramApi('simulations (sandbox only)', 'v1/simulate', { errors: [404, 409], sandboxOnly: true })
export class SimulationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly acknowledger: WriteAcknowledger,
    private readonly writes: SimulatedWrites,
  ) {}

  @Route('POST', 'authorize', {
    summary: 'Simulate an authorization (spec 4.1), or another of Lithic\'s kinds of message (status); a decline answers 422 with the transaction token',
    answers: SimulationResponse,
    errors: [422],
  })
  async authorize(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateAuthorizeRequest): Promise<SimulationResponse> {
    if (body.status === 'CREDIT_AUTHORIZATION' || body.status === 'FINANCIAL_CREDIT_AUTHORIZATION') return this.creditAuthorization(programToken, request, body, body.status);
    // Lithic: "For balance inquiries, this field must be set to 0".
    if (body.status === 'BALANCE_INQUIRY' && body.amount !== 0) throw new RequestInvalid('amount must be 0 for a BALANCE_INQUIRY');
    const origin = commandOrigin(programToken, request);
    // Ours, not the service's: should no answer come back, the token is where to look.
    const transactionToken = randomUUID();
    const accepted = await this.writes.execute('authorization', origin, { kind: 'opening', transactionToken }, this.authorizationCommand(origin, body, transactionToken));
    this.acknowledger.readsWaitFor(programToken, { token: accepted.transactionToken, position: accepted.position });
    if (accepted.result !== 'APPROVED') throw new AuthorizationDeclined(accepted.result, accepted.transactionToken);
    return { debugging_request_id: request.id, token: accepted.transactionToken };
  }

  private authorizationCommand(origin: CommandOrigin, body: SimulateAuthorizeRequest, transactionToken: string): SimulateAuthorizationCommand {
    return new SimulateAuthorizationCommand(
      origin,
      {
        pan: body.pan,
        ...(body.tokenization_token !== undefined ? { tokenizationToken: body.tokenization_token } : {}),
        amount: body.amount,
        merchant: merchantOf(body),
        merchantCurrency: body.merchant_currency ?? DEFAULT_CURRENCY,
        merchantAmount: body.merchant_amount ?? body.amount,
        presented: { cvv: body.cvv, expMonth: body.exp_month, expYear: body.exp_year, pin: body.pin },
        partialApprovalCapable: body.partial_approval_capable,
        ...(body.three_ds_authentication_token !== undefined ? { threeDSAuthenticationToken: body.three_ds_authentication_token } : {}),
        ...(body.status === 'BALANCE_INQUIRY' || body.status === 'FINANCIAL_AUTHORIZATION' ? { kind: body.status } : {}),
        ...posOf(body),
      },
      transactionToken,
    );
  }

  /**
   * A credit asked for with simulate/authorize: money back, which takes the return's way (never
   * declined, on any card of the program). What only a purchase carries (card details, the
   * merchant's currency) is refused rather than ignored.
   */
  private async creditAuthorization(
    programToken: string,
    request: FastifyRequest,
    body: SimulateAuthorizeRequest,
    kind: 'CREDIT_AUTHORIZATION' | 'FINANCIAL_CREDIT_AUTHORIZATION',
  ): Promise<SimulationResponse> {
    if (body.amount === 0) throw new RequestInvalid(`amount must be 1 or more for a ${kind}`);
    const purchaseOnly = (['cvv', 'exp_month', 'exp_year', 'pin', 'partial_approval_capable', 'merchant_currency', 'merchant_amount', 'pan_entry_mode', 'wallet_type', 'cash_amount', 'three_ds_authentication_token', 'tokenization_token'] as const).filter((field) => body[field] !== undefined);
    if (purchaseOnly.length > 0) throw new RequestInvalid(`${purchaseOnly.join(', ')} cannot be sent with status ${kind}`);
    return this.credit(programToken, request, body.pan, body.amount, merchantOf(body), kind);
  }

  @Route('POST', 'credit_authorization_advice', {
    summary: 'The network approved a credit (refund) on the card\'s behalf (Lithic simulateCreditAuthorizationAdvice): a PENDING credit until its clearing',
    answers: SimulationResponse,
  })
  creditAuthorizationAdvice(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateCreditAuthorizationAdviceRequest): Promise<SimulationResponse> {
    const merchant = {
      acceptorId: body.merchant_acceptor_id ?? '',
      city: body.merchant_acceptor_city ?? '',
      country: body.merchant_acceptor_country ?? DEFAULT_COUNTRY,
      descriptor: body.descriptor,
      mcc: body.mcc ?? DEFAULT_MCC,
      state: body.merchant_acceptor_state ?? '',
    };
    return this.credit(programToken, request, body.pan, body.amount, merchant, 'CREDIT_AUTHORIZATION_ADVICE');
  }

  /** Money back opens its own transaction under a token the gateway chose, as a return does. */
  private async credit(programToken: string, request: FastifyRequest, pan: string, amount: number, merchant: Merchant, kind?: CreditAuthorizationKind): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const transactionToken = randomUUID();
    const accepted = await this.writes.execute(kind ? kind.toLowerCase().replaceAll('_', ' ') : 'return', origin, { kind: 'opening', transactionToken }, new SimulateReturnCommand(origin, pan, amount, merchant, transactionToken, kind));
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: request.id, token: accepted.transactionToken };
  }

  @Route('POST', 'void', {
    summary: 'Void (part of) a pending authorization (spec 4.2), all that is pending when amount is absent; type AUTHORIZATION_EXPIRY expires it whole instead',
    answers: SimulationResponse,
  })
  async void(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateVoidRequest): Promise<SimulationResponse> {
    if (body.type !== 'AUTHORIZATION_EXPIRY') return this.transactionEvent('VOID', programToken, request, body);
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      'authorization expiry',
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new ExpireAuthorizationCommand(origin, body.token, body.amount, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: request.id };
  }

  @Route('POST', 'clearing', {
    summary: 'Clear an authorization (spec 4.3), all that is pending when amount is absent; the transaction moves to SETTLING',
    answers: SimulationResponse,
  })
  clearing(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateClearingRequest): Promise<SimulationResponse> {
    return this.transactionEvent('CLEARING', programToken, request, body);
  }

  @Route('POST', 'authorization_advice', { summary: 'Change the pending amount of an authorization', answers: SimulationResponse })
  advice(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateTransactionAmountRequest): Promise<SimulationResponse> {
    return this.transactionEvent('ADVICE', programToken, request, body);
  }

  @Route('POST', 'return', { summary: 'Return (refund) an amount to a card (spec 4.4)', answers: SimulationResponse })
  return(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateReturnRequest): Promise<SimulationResponse> {
    const merchant = { acceptorId: '', city: '', country: DEFAULT_COUNTRY, descriptor: body.descriptor, mcc: DEFAULT_MCC, state: '' };
    return this.credit(programToken, request, body.pan, body.amount, merchant);
  }

  @Route('POST', 'return_reversal', {
    summary: 'Take a whole SETTLING or SETTLED return back (Lithic simulateReturnReversal); the return becomes VOIDED',
    answers: SimulationResponse,
  })
  async returnReversal(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Body() body: SimulateReturnReversalRequest): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      'return reversal',
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new SimulateReturnReversalCommand(origin, body.token, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: request.id };
  }

  @Route('POST', 'settle', { summary: 'Settle one SETTLING transaction, or all of the program\'s', answers: SettlementModel })
  async settle(
    @CallingProgram() programToken: string,
    @Req() request: FastifyRequest,
    @Body() body: SimulateSettleRequest,
  ): Promise<SimulationResponse & { settled: string[]; bounced: string[] }> {
    const accepted = await this.commands.execute<SimulateSettlementCommand, SettlementAccepted>(
      new SimulateSettlementCommand(commandOrigin(programToken, request), body.token),
    );
    await this.acknowledger.visible({ token: programToken, position: accepted.position });
    return { debugging_request_id: request.id, settled: accepted.settled, bounced: accepted.bounced };
  }

  private async transactionEvent(
    action: TransactionAmountAction,
    programToken: string,
    request: FastifyRequest,
    body: { readonly token: string; readonly amount?: number },
  ): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      SIMULATION_NAMES[action],
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new SimulateTransactionEventCommand(origin, action, body.token, body.amount, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: request.id };
  }
}
