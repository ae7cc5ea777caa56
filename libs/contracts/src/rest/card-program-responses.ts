import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { pageOf } from './responses';

/**
 * Lithic's CardProgram. Each program issues on one card program, whose token is the program's own
 * (the card_program_token every card already shows), over the service's BIN.
 */
@ApiSchema({ name: 'CardProgramModel' })
export class CardProgramResponse {
  @ApiProperty({ format: 'uuid', description: "The program's token" }) token!: string;
  @ApiProperty({ description: "The program's name" }) name!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ description: 'The BIN every card number of the program starts with' }) pan_range_start!: string;
  @ApiProperty({ description: 'The same BIN: the program has one range' }) pan_range_end!: string;
  @ApiProperty({ description: 'Always false: no network programs here' }) account_level_management_enabled!: boolean;
  @ApiProperty({ example: 'USD' }) cardholder_currency!: string;
  @ApiProperty({ type: [String], example: ['USD'] }) settlement_currencies!: string[];
}

export const CardProgramPageModel = pageOf(CardProgramResponse, 'CardProgramPage');
