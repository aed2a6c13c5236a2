import type { BinaryOperator, RelationOperator, UnaryOperator } from './operators.js';

/**
 * A column reached from the collection's model, possibly through to-one relationships
 * (`author.name` is relations ['author'], column 'name').
 */
export interface FieldRef {
  readonly relations: readonly string[];
  readonly column: string;
}

/** A value the database computes when the statement runs. */
export interface NowValue {
  readonly kind: 'now';
  readonly fn: 'CURRENT_TIMESTAMP' | 'CURRENT_DATE' | 'LOCALTIMESTAMP';
}

/** A value already checked against its column's type; temporal values are normalised strings. */
export type ScalarValue = string | number | boolean | NowValue;

export type Filter =
  | {
      readonly kind: 'compare';
      readonly field: FieldRef;
      readonly op: BinaryOperator;
      readonly value: ScalarValue | readonly ScalarValue[];
    }
  | { readonly kind: 'compare-field'; readonly field: FieldRef; readonly op: BinaryOperator; readonly other: FieldRef }
  | { readonly kind: 'null-check'; readonly field: FieldRef; readonly op: UnaryOperator }
  | { readonly kind: 'relation'; readonly relation: string; readonly op: RelationOperator; readonly filter?: Filter }
  | { readonly kind: 'and'; readonly filters: readonly Filter[] }
  | { readonly kind: 'or'; readonly filters: readonly Filter[] };

export const isNow = (v: unknown): v is NowValue =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'now';
