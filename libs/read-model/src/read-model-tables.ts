import type { Types } from '@prisma/client/runtime/client';
import type { Prisma } from './generated/prisma/client';
import { GENERATED_TABLES } from './generated/tables/table-descriptions';
import type { TableDescription } from './table-description';

/** A model's row as Prisma's client reads it: `Card` for `'Card'`. */
export type ModelRow<Model extends Prisma.ModelName> = Types.Result.DefaultSelection<Prisma.TypeMap['model'][Model]['payload']>;

/**
 * Every read-model table, by model name, as schema.prisma declares it: the one declaration of the
 * read-model columns besides the SQL migrations (which schema-agreement.spec.ts holds to it). Both
 * this and the client come from the same `prisma generate`; the type check below makes a model
 * and its description agree field for field.
 */
export const READ_MODEL_TABLES = GENERATED_TABLES satisfies { readonly [Model in Prisma.ModelName]: TableDescription<ModelRow<Model>> };
