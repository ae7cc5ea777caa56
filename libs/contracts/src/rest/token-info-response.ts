import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { TokenInfo } from '@ledger/domain';

/** Lithic's `token_info` of a transaction made through a wallet token. */
@ApiSchema({ name: 'TokenInfoModel' })
export class TokenInfoResponse {
  @ApiProperty({ enum: ['APPLE_PAY', 'GOOGLE_PAY', 'MASTERPASS', 'MERCHANT', 'OTHER', 'SAMSUNG_PAY'] }) wallet_type!: string;
}

export function presentTokenInfo(tokenInfo: TokenInfo | undefined): TokenInfoResponse | null {
  return tokenInfo === undefined ? null : { wallet_type: tokenInfo.walletType };
}
