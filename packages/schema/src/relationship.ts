/**
 * How the rows of two models meet. Every kind equates `ownColumn` of the owner with `targetColumn` of the
 * target, either directly or through a join table.
 */
export type JoinPath =
  /** The foreign key is on the owner: owner.ownColumn → target.targetColumn (BelongsToOne). */
  | { readonly kind: 'belongs-to'; readonly ownColumn: string; readonly targetColumn: string }
  /** The foreign key is on the target: target.targetColumn → owner.ownColumn (HasOne, HasMany). */
  | { readonly kind: 'has'; readonly ownColumn: string; readonly targetColumn: string }
  /** A join table: owner.ownColumn = through.ownColumn, through.targetColumn = target.targetColumn. */
  | {
      readonly kind: 'through';
      readonly ownColumn: string;
      readonly targetColumn: string;
      readonly through: { readonly table: string; readonly ownColumn: string; readonly targetColumn: string };
    };

export interface RelationshipSchema {
  readonly name: string;
  readonly cardinality: 'one' | 'many';
  /** Name of the target model. */
  readonly target: string;
  readonly join: JoinPath;
}
