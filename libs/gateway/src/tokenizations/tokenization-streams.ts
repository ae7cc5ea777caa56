import { Inject, Injectable } from '@nestjs/common';
import { ledgerCodec } from '@ledger/contracts';
import {
  type ExistingTokenization,
  ownedTokenization,
  programTokenizationsDecider,
  type ProgramTokenizationsEvent,
  programTokenizationsStreamId,
  tokenizationDecider,
  type TokenizationEvent,
  tokenizationStreamId,
} from '@ledger/domain';
import { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';

/**
 * A program's tokens, folded from their streams: its list (tokenizations-<program>), then each token's
 * stream. The card-service decides on these streams, so a token is shown as soon as its write
 * succeeded, with no read model to wait for.
 */
@Injectable()
export class TokenizationStreams {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async tokenization(programToken: string, tokenizationToken: string): Promise<ExistingTokenization> {
    const events = (await this.store.readStream(tokenizationStreamId(tokenizationToken))).map((event) => ledgerCodec<TokenizationEvent>().decode(event));
    return ownedTokenization(events.reduce(tokenizationDecider.evolve, tokenizationDecider.initialState()), tokenizationToken, programToken);
  }

  /** Oldest first: the order tokens were listed in, which is the order they were created. */
  async tokenizations(programToken: string): Promise<ExistingTokenization[]> {
    const listed = (await this.store.readStream(programTokenizationsStreamId(programToken))).map((event) => ledgerCodec<ProgramTokenizationsEvent>().decode(event));
    const { tokenizationTokens } = listed.reduce(programTokenizationsDecider.evolve, programTokenizationsDecider.initialState());
    return Promise.all(tokenizationTokens.map((token) => this.tokenization(programToken, token)));
  }
}
