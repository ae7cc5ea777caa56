import type { DisputeCommand, UploadDisputeEvidence } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

/**
 * A dispute command as it travels between processes: the domain's, with an evidence upload's bytes
 * as base64 (a transport carries JSON). The program is the origin's.
 */
export type DisputeRequest =
  | Exclude<DistributiveOmit<DisputeCommand, 'programToken'>, Omit<UploadDisputeEvidence, 'programToken'>>
  | (Omit<UploadDisputeEvidence, 'programToken' | 'content'> & { readonly contentBase64: string });

type DistributiveOmit<T, Key extends PropertyKey> = T extends unknown ? Omit<T, Key> : never;

/** Files, changes or moves a dispute; answers with the dispute's token. */
export class DecideDisputeCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly request: DisputeRequest,
  ) {}
}
