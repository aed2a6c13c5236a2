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
    }
  /**
   * A foreign key of several columns, to the target's composite key: owner.ownColumns[i] = target.targetColumns[i]
   * for every i. `on` says which side holds the foreign key: `owner` (to-one, as belongs-to) or `target` (as
   * has). Writing either sets the foreign key's columns, which stay fields of their model too.
   */
  | {
      readonly kind: 'composite';
      readonly on: 'owner' | 'target';
      readonly ownColumns: readonly string[];
      readonly targetColumns: readonly string[];
    };

/** A join path of one column on each side (every kind but `composite`). */
export type SingleJoinPath = Exclude<JoinPath, { readonly kind: 'composite' }>;

export interface RelationshipSchema {
  readonly name: string;
  readonly cardinality: 'one' | 'many';
  /** Name of the target model. */
  readonly target: string;
  readonly join: JoinPath;
}
