import { Injectable } from '@nestjs/common';
import { CardResponse, TransactionResponse } from '@ledger/contracts';
import { presentTransaction, Transaction } from '@ledger/read-model';

/** Transaction rows to the spec's Transaction object (2.3), with the owning program's full card. */
@Injectable()
export class TransactionPresenter {
  transaction(row: Transaction, card: CardResponse, fundingType: string): TransactionResponse {
    return presentTransaction(row, card, fundingType);
  }
}
