/** Row counts of the bench dataset at scale 1 (issue 6); a scale multiplies every one. */
export const SIZES = { person: 10_000, article: 50_000, comment: 200_000, tag: 200, article_tag: 100_000 } as const;

export type BenchTable = keyof typeof SIZES;
export type Sizes = Record<BenchTable, number>;

export function sizesAt(scale: number): Sizes {
  return {
    person: SIZES.person * scale,
    article: SIZES.article * scale,
    comment: SIZES.comment * scale,
    // Tags stay few: they are a vocabulary, not data that grows with use.
    tag: SIZES.tag,
    article_tag: SIZES.article_tag * scale,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The i-th row (1-based) of a table, deterministic so that both servers and every run see the same data.
 * Values use the wire forms (ISO timestamps); the seeder turns them into each dialect's stored form.
 * A few nulls make the encoders take their null paths too.
 */
export function row(table: BenchTable, i: number, sizes: Sizes): Record<string, unknown> {
  switch (table) {
    case 'person': {
      const birthday = `${1940 + (i % 70)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;
      return {
        id: i,
        name: `Person ${i}`,
        age: i % 50 === 0 ? null : i % 90,
        other: i % 7 === 0 ? null : (i % 1000) / 8,
        birthday: i % 40 === 0 ? null : birthday,
        birth_datetime: i % 40 === 0 ? null : `${birthday}T${pad(i % 24)}:${pad(i % 60)}:${pad((i * 7) % 60)}`,
        bedtime: `${pad(20 + (i % 4))}:${pad((i * 13) % 60)}:00`,
      };
    }
    case 'article':
      return {
        id: i,
        title: `Article ${i} about ${['databases', 'koa', 'benchmarks', 'json'][i % 4]}`,
        publishtime: `${2010 + (i % 15)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}T${pad(i % 24)}:${pad((i * 7) % 60)}:00`,
        // Five articles per person; every 997th has no author.
        author_id: i % 997 === 0 ? null : ((i - 1) % sizes.person) + 1,
      };
    case 'comment':
      return {
        id: i,
        content: `Comment ${i}: ${'a thoughtful remark '.repeat(1 + (i % 3))}`.trim(),
        article_id: ((i - 1) % sizes.article) + 1,
        author_id: ((i * 7) % sizes.person) + 1,
      };
    case 'tag':
      return { id: i, name: `tag-${i}` };
    case 'article_tag': {
      // Two distinct tags per article: 3a and 7a+1 never meet modulo an even tag count.
      const a = ((i - 1) >> 1) + 1;
      const tag = i % 2 === 1 ? ((a * 3) % sizes.tag) + 1 : ((a * 7 + 1) % sizes.tag) + 1;
      return { article_id: a, tag_id: tag };
    }
  }
}
