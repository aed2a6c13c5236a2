/**
 * A whole number beyond what its column holds, refused by a dialect whose database would store it anyway
 * (SQLite keeps 64 bits in any integer column). Classified as `out-of-range`, like the other databases'
 * own refusals, and names the column as they do.
 */
export class ValueOutOfRange extends Error {
  readonly column: string;

  constructor(column: string) {
    super(`a value is out of range for column ${column}`);
    this.name = 'ValueOutOfRange';
    this.column = column;
  }
}
