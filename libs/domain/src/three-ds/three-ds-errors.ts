import { Conflict, NotFound } from '../core/domain-error';

export class ThreeDSAuthenticationNotFound extends NotFound {
  static override readonly code = 'three_ds_authentication_not_found';
  constructor(readonly threeDSAuthenticationToken: string, field = 'three_ds_authentication_token') {
    super(`3DS authentication ${threeDSAuthenticationToken} not found`, field);
  }
}

/** An OTP or a challenge response answers a challenge: the authentication must be waiting for one. */
export class ThreeDSChallengeNotPending extends Conflict {
  static override readonly code = 'three_ds_challenge_not_pending';
  constructor(readonly threeDSAuthenticationToken: string, result: string) {
    super(`3DS authentication ${threeDSAuthenticationToken} is not waiting for a challenge (authentication_result ${result})`, 'token');
  }
}
