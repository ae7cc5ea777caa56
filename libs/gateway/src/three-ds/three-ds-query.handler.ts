import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetThreeDSAuthenticationQuery, ledgerCodec, presentThreeDSAuthentication, ThreeDSAuthenticationResponse } from '@ledger/contracts';
import { ownedThreeDSAuthentication, threeDSAuthenticationDecider, type ThreeDSAuthenticationEvent, threeDSAuthenticationStreamId } from '@ledger/domain';
import { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';

/** An authentication is a short stream of its own, folded on each read. */
@QueryHandler(GetThreeDSAuthenticationQuery)
export class GetThreeDSAuthenticationHandler implements IQueryHandler<GetThreeDSAuthenticationQuery, ThreeDSAuthenticationResponse> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ programToken, threeDSAuthenticationToken }: GetThreeDSAuthenticationQuery): Promise<ThreeDSAuthenticationResponse> {
    const events = (await this.store.readStream(threeDSAuthenticationStreamId(threeDSAuthenticationToken))).map((event) => ledgerCodec<ThreeDSAuthenticationEvent>().decode(event));
    const authentication = events.reduce(threeDSAuthenticationDecider.evolve, threeDSAuthenticationDecider.initialState());
    return presentThreeDSAuthentication(ownedThreeDSAuthentication(authentication, threeDSAuthenticationToken, programToken, 'three_ds_authentication_token'));
  }
}
