import { Body } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CommandAccepted,
  CommandOrigin,
  EmptyModel,
  EnterThreeDSOtpCommand,
  EnterThreeDSOtpRequest,
  SimulateThreeDSAuthenticationCommand,
  SimulateThreeDSAuthenticationRequest,
  ThreeDSSimulateResponse,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';

/** Lithic's 3DS simulations (sandbox only): an authentication as an ACS would ask for it, and the OTP a cardholder types. */
@ProgramApi('3-D Secure', 'v1', { errors: [404], sandboxOnly: true })
export class ThreeDSSimulationsController {
  constructor(private readonly commands: CommandBus) {}

  @Route('POST', 'three_ds_authentication/simulate', {
    summary: 'Simulate a 3DS authentication of a card: frictionless, a challenge when the merchant name carries CHALLENGE, declined on an expiry MISMATCH',
    answers: ThreeDSSimulateResponse,
  })
  async simulate(@CallerOrigin() origin: CommandOrigin, @Body() body: SimulateThreeDSAuthenticationRequest): Promise<ThreeDSSimulateResponse> {
    const { merchant, transaction } = body;
    const command = new SimulateThreeDSAuthenticationCommand(
      origin,
      body.pan,
      { id: merchant.id, country: merchant.country, mcc: merchant.mcc, name: merchant.name },
      { amount: transaction.amount, currency: transaction.currency },
      body.card_expiry_check ?? 'MATCH',
    );
    const accepted = await this.commands.execute<SimulateThreeDSAuthenticationCommand, CommandAccepted>(command);
    return { token: accepted.token };
  }

  @Route('POST', 'three_ds_decisioning/simulate/enter_otp', {
    summary: 'Simulate the cardholder typing the OTP of a pending challenge: 123456 authenticates, any other declines (one attempt)',
    answers: EmptyModel,
    errors: [409],
  })
  async enterOtp(@CallerOrigin() origin: CommandOrigin, @Body() body: EnterThreeDSOtpRequest): Promise<EmptyModel> {
    await this.commands.execute<EnterThreeDSOtpCommand, CommandAccepted>(new EnterThreeDSOtpCommand(origin, body.token, body.otp));
    return {};
  }
}
