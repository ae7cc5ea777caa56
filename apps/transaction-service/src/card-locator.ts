import { Inject, Injectable } from '@nestjs/common';
import { CardVault } from '@ledger/card-vault';
import { ledgerCodec } from '@ledger/contracts';
import { CardNumberAssigned, cardNumberStreamId, InvalidInput, isValidCardNumber, NotFound } from '@ledger/domain';
import { PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';

export class NoCardWithThisNumber extends NotFound {
  constructor() {
    super('No card with this pan was found', 'pan');
  }
}

/** Finds a card by its number through the card-number registry stream, never by a clear PAN. */
@Injectable()
export class CardLocator {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async cardTokenFor(pan: string, programToken: string): Promise<string> {
    if (!isValidCardNumber(pan)) throw new InvalidInput('pan is not a valid card number (its Luhn check digit is wrong)', 'pan');
    const [assigned] = await this.env.store.readStream(cardNumberStreamId(this.vault.lookupHash(pan)), { maxCount: 1 });
    if (!assigned) throw new NoCardWithThisNumber();
    const event = ledgerCodec<CardNumberAssigned>().decode(assigned);
    // Another program's card is answered exactly like a missing one.
    if (event.data.programToken !== programToken) throw new NoCardWithThisNumber();
    return event.data.cardToken;
  }
}
