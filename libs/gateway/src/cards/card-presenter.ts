import { Injectable } from '@nestjs/common';
import { CardVault } from '@ledger/card-vault';
import { CardResponse } from '@ledger/contracts';
import { Card, FundingSource, presentCardWithoutSecrets } from '@ledger/read-model';

/** Card rows to the spec's Card object; the only place a clear PAN and CVV are produced. */
@Injectable()
export class CardPresenter {
  constructor(private readonly vault: CardVault) {}

  card(card: Card, funding: FundingSource): CardResponse {
    const pan = this.vault.decrypt(card.panEncrypted);
    return { ...presentCardWithoutSecrets(card, funding), pan, cvv: this.vault.cvv(pan, card.expMonth, card.expYear) };
  }
}
