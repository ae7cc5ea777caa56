import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { OneOfField, UrlField } from './value-fields';

/**
 * Lithic's responder endpoints: the program's own endpoints Lithic asks to decide. Only the
 * authorization stream exists here (AUTH_STREAM_ACCESS); there is no 3-D Secure and no digital-wallet
 * tokenization, so nothing would ever ask the other two.
 */
export const RESPONDER_ENDPOINT_TYPES = ['AUTH_STREAM_ACCESS', 'THREE_DS_DECISIONING', 'TOKENIZATION_DECISIONING'] as const;
export type ResponderEndpointType = (typeof RESPONDER_ENDPOINT_TYPES)[number];

/** The one type that can be enrolled. */
export const ENROLLABLE_RESPONDER_ENDPOINT_TYPES = ['AUTH_STREAM_ACCESS'] as const satisfies readonly ResponderEndpointType[];

/** POST /v1/responder_endpoints. */
export class CreateResponderEndpointRequest {
  @OneOfField(ENROLLABLE_RESPONDER_ENDPOINT_TYPES, {
    description: 'AUTH_STREAM_ACCESS: the authorization stream (as PUT /v1/auth_stream). THREE_DS_DECISIONING and TOKENIZATION_DECISIONING are refused: nothing here would ever ask them',
    message: 'type must be AUTH_STREAM_ACCESS: there is no 3-D Secure or tokenization decisioning here to send to an endpoint',
  })
  type!: (typeof ENROLLABLE_RESPONDER_ENDPOINT_TYPES)[number];

  @UrlField({ description: 'The endpoint asked to approve each authorization; the checks of PUT /v1/auth_stream apply' })
  url!: string;
}

/** GET and DELETE /v1/responder_endpoints?type=. */
export class ResponderEndpointTypeParams {
  @OneOfField(RESPONDER_ENDPOINT_TYPES)
  type!: ResponderEndpointType;
}

@ApiSchema({ name: 'ResponderEndpointEnrolledModel' })
export class ResponderEndpointEnrolledResponse {
  @ApiProperty({ description: 'Always true: a refused enrolment is an error answer' }) enrolled!: boolean;
}

@ApiSchema({ name: 'ResponderEndpointStatusModel' })
export class ResponderEndpointStatusResponse {
  @ApiProperty({ description: 'Whether an endpoint of the type is enrolled' }) enrolled!: boolean;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'The enrolled endpoint, null when none' }) url!: string | null;
}
