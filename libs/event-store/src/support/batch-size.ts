/** Events per subscription batch when the subscriber does not say; both adapters use it. */
export const DEFAULT_BATCH_SIZE = 500;

export function validBatchSize(batchSize: number | undefined): number {
  const size = batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batchSize must be a positive integer, got ${size}`);
  return size;
}
