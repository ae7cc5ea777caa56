import { Inject, Injectable } from '@nestjs/common';
import { CardVault } from '@ledger/card-vault';
import { ledgerCodec } from '@ledger/contracts';
import { CardNumberAssigned, cardNumberStreamId, InvalidInput, isValidCardNumber, NotFound } from '@ledger/domain';
import { PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';

export class NoCardWithThisNumber extends NotFound {
  static override readonly code = 'no_card_with_this_number';
  constructor() {
    super('No card with this pan was found', 'pan');
  }
}

const MAX_REMEMBERED_NUMBERS = 20_000;

/** Finds a card by its number through the card-number registry stream, never by a clear PAN. */
@Injectable()
export class CardLocator {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  /** A number, once assigned, belongs to its card for good, so what was found is kept (never a miss). */
  private readonly assignments = new Map<string, CardNumberAssigned['data']>();

  async cardTokenFor(pan: string, programToken: string): Promise<string> {
    if (!isValidCardNumber(pan)) throw new InvalidInput('pan is not a valid card number (its Luhn check digit is wrong)', 'pan');
    const assignment = await this.assignmentOf(this.vault.lookupHash(pan));
    // Another program's card is answered exactly like a missing one.
    if (!assignment || assignment.programToken !== programToken) throw new NoCardWithThisNumber();
    return assignment.cardToken;
  }

  private async assignmentOf(lookupHash: string): Promise<CardNumberAssigned['data'] | undefined> {
    const known = this.assignments.get(lookupHash);
    if (known) return known;
    const [assigned] = await this.env.store.readStream(cardNumberStreamId(lookupHash), { maxCount: 1 });
    if (!assigned) return undefined;
    const { data } = ledgerCodec<CardNumberAssigned>().decode(assigned);
    if (this.assignments.size >= MAX_REMEMBERED_NUMBERS) this.assignments.delete(this.assignments.keys().next().value as string);
    this.assignments.set(lookupHash, data);
    return data;
  }
}
