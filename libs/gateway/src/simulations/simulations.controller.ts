import { Body, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { type CommandOrigin, SettlementAccepted, SettlementModel, SimulateAuthorizationCommand, SimulateAuthorizeRequest, SimulateClearingRequest, ExpireAuthorizationCommand, SimulateReturnCommand, SimulateReturnRequest, SimulateReturnReversalCommand, SimulateReturnReversalRequest, SimulateSettlementCommand, SimulateSettleRequest, SimulateTransactionAmountRequest, SimulateTransactionEventCommand, SimulateVoidRequest, SimulationResponse, TransactionAmountAction } from '@ledger/contracts';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { SimulatedWrites } from './simulated-writes';
import { ProgramApi, Route } from '../http/api-routes';
import { commandOrigin } from '../http/command-origin';
import { AuthorizationDeclined, RequestInvalid } from '../http/errors';
import { RequestWithId, requestIdOf } from '../http/request-id';

/** Defaults for merchant fields a simulated authorization leaves out. */
const DEFAULT_MCC = '5999';
const DEFAULT_COUNTRY = 'USA';
const DEFAULT_CURRENCY = 'USD';

/** Lithic's name for a merchant field and ours may both be sent; if both are, they must agree. */
function alias(ours: string | undefined, lithic: string | undefined, names: string): string | undefined {
  if (ours !== undefined && lithic !== undefined && ours !== lithic) throw new RequestInvalid(`${names} name the same field and differ`);
  return ours ?? lithic;
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
    summary: 'Simulate an authorization (spec 4.1); a decline answers 422 with the transaction token',
    answers: SimulationResponse,
    errors: [422],
  })
  async authorize(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateAuthorizeRequest): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    // Ours, not the service's: should no answer come back, the token is where to look.
    const transactionToken = randomUUID();
    const accepted = await this.writes.execute(origin, { kind: 'opening', transactionToken }, this.authorizationCommand(origin, body, transactionToken));
    this.acknowledger.readsWaitFor(programToken, { token: accepted.transactionToken, position: accepted.position });
    if (accepted.result !== 'APPROVED') throw new AuthorizationDeclined(accepted.result, accepted.transactionToken);
    return { debugging_request_id: requestIdOf(request), token: accepted.transactionToken };
  }

  private authorizationCommand(origin: CommandOrigin, body: SimulateAuthorizeRequest, transactionToken: string): SimulateAuthorizationCommand {
    return new SimulateAuthorizationCommand(
      origin,
      {
        pan: body.pan,
        amount: body.amount,
        merchant: {
          acceptorId: body.merchant_acceptor_id ?? '',
          city: alias(body.city, body.merchant_acceptor_city, 'city and merchant_acceptor_city') ?? '',
          country: alias(body.country, body.merchant_acceptor_country, 'country and merchant_acceptor_country') ?? DEFAULT_COUNTRY,
          descriptor: body.descriptor,
          mcc: body.mcc ?? DEFAULT_MCC,
          state: alias(body.state, body.merchant_acceptor_state, 'state and merchant_acceptor_state') ?? '',
        },
        merchantCurrency: body.merchant_currency ?? DEFAULT_CURRENCY,
        merchantAmount: body.merchant_amount ?? body.amount,
        presented: { cvv: body.cvv, expMonth: body.exp_month, expYear: body.exp_year, pin: body.pin },
        partialApprovalCapable: body.partial_approval_capable,
      },
      transactionToken,
    );
  }

  @Route('POST', 'void', {
    summary: 'Void (part of) a pending authorization (spec 4.2), all that is pending when amount is absent; type AUTHORIZATION_EXPIRY expires it whole instead',
    answers: SimulationResponse,
  })
  async void(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateVoidRequest): Promise<SimulationResponse> {
    if (body.type !== 'AUTHORIZATION_EXPIRY') return this.transactionEvent('VOID', programToken, request, body);
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new ExpireAuthorizationCommand(origin, body.token, body.amount, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: requestIdOf(request) };
  }

  @Route('POST', 'clearing', {
    summary: 'Clear an authorization (spec 4.3), all that is pending when amount is absent; the transaction moves to SETTLING',
    answers: SimulationResponse,
  })
  clearing(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateClearingRequest): Promise<SimulationResponse> {
    return this.transactionEvent('CLEARING', programToken, request, body);
  }

  @Route('POST', 'authorization_advice', { summary: 'Change the pending amount of an authorization', answers: SimulationResponse })
  advice(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateTransactionAmountRequest): Promise<SimulationResponse> {
    return this.transactionEvent('ADVICE', programToken, request, body);
  }

  @Route('POST', 'return', { summary: 'Return (refund) an amount to a card (spec 4.4)', answers: SimulationResponse })
  async return(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateReturnRequest): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const transactionToken = randomUUID();
    const merchant = { acceptorId: '', city: '', country: DEFAULT_COUNTRY, descriptor: body.descriptor, mcc: DEFAULT_MCC, state: '' };
    const accepted = await this.writes.execute(
      origin,
      { kind: 'opening', transactionToken },
      new SimulateReturnCommand(origin, body.pan, body.amount, merchant, transactionToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: requestIdOf(request), token: accepted.transactionToken };
  }

  @Route('POST', 'return_reversal', {
    summary: 'Take a whole SETTLING or SETTLED return back (Lithic simulateReturnReversal); the return becomes VOIDED',
    answers: SimulationResponse,
  })
  async returnReversal(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateReturnReversalRequest): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new SimulateReturnReversalCommand(origin, body.token, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: requestIdOf(request) };
  }

  @Route('POST', 'settle', { summary: 'Settle one SETTLING transaction, or all of the program\'s', answers: SettlementModel })
  async settle(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Body() body: SimulateSettleRequest,
  ): Promise<SimulationResponse & { settled: string[]; bounced: string[] }> {
    const accepted = await this.commands.execute<SimulateSettlementCommand, SettlementAccepted>(
      new SimulateSettlementCommand(commandOrigin(programToken, request), body.token),
    );
    await this.acknowledger.visible({ token: programToken, position: accepted.position });
    return { debugging_request_id: requestIdOf(request), settled: accepted.settled, bounced: accepted.bounced };
  }

  private async transactionEvent(
    action: TransactionAmountAction,
    programToken: string,
    request: RequestWithId,
    body: { readonly token: string; readonly amount?: number },
  ): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      origin,
      { kind: 'movement', transactionToken: body.token, eventToken },
      new SimulateTransactionEventCommand(origin, action, body.token, body.amount, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: requestIdOf(request) };
  }
}
