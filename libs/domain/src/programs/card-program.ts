import { InvalidInput, NotFound } from '../core/domain-error';

/**
 * Lithic's card program is the BIN range cards are issued on; its account is the entity cards belong
 * to. A program here is both, so it issues on exactly one card program, whose token is the program's
 * own (what every card's card_program_token shows).
 */
export function cardProgramTokenOf(programToken: string): string {
  return programToken;
}

/** A card_program_token on a card's creation must name the program's own card program. */
export function checkedCardProgram(programToken: string, cardProgramToken: string | undefined): void {
  if (cardProgramToken !== undefined && cardProgramToken !== cardProgramTokenOf(programToken)) throw new UnknownCardProgram(cardProgramToken);
}

/** As Lithic answers an unknown card program on a card's creation: 400 naming the field. */
export class UnknownCardProgram extends InvalidInput {
  static override readonly code = 'unknown_card_program';
  constructor(readonly cardProgramToken: string) {
    super(`card_program_token: card program ${cardProgramToken} not found`, 'card_program_token');
  }
}

export class CardProgramNotFound extends NotFound {
  static override readonly code = 'card_program_not_found';
  constructor(readonly cardProgramToken: string) {
    super(`Card program ${cardProgramToken} not found`, 'card_program_token');
  }
}
