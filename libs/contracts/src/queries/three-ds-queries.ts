export class GetThreeDSAuthenticationQuery {
  constructor(
    readonly programToken: string,
    readonly threeDSAuthenticationToken: string,
  ) {}
}
