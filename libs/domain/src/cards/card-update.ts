import { ProgramNotFound, resolveFundingSource, type Program } from '../programs/program';
import { cardDecider, type UpdateCard } from './card';
import { ownedCard, type Card, type CardEvent } from './card-state';

/**
 * A card's update, decided on the card and, when it moves the card to another funding source, on the
 * program that must hold that source. The card is looked at first: a card that is not the program's
 * is not found, whatever else the update says.
 */
export function decideCardUpdate(command: UpdateCard, card: Card, program: Program, now: Date): CardEvent[] {
  ownedCard(card, command.cardToken, command.programToken);
  if (command.fundingToken !== undefined) {
    if (program.status === 'absent') throw new ProgramNotFound(command.programToken);
    resolveFundingSource(program, command.fundingToken);
  }
  return cardDecider.decide(command, card, { now });
}
