import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyDirectory } from '@ledger/auth';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';

/** Looks api-key hashes up in the api_keys read model; revoked keys are not found. */
@Injectable()
export class ReadModelApiKeyDirectory implements ApiKeyDirectory {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async findByKeyHash(keyHash: string): Promise<{ programToken: string; keyHash: string } | null> {
    const key = await this.readModel.apiKey.findUnique({ where: { keyHash } });
    return key && !key.revoked ? { programToken: key.programToken, keyHash: key.keyHash } : null;
  }
}
