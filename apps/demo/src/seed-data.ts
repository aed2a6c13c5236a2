/**
 * The bookshop's sample data, generated from a fixed seed so that every start (and every test) sees the
 * same rows: a few hundred of them, enough for paging, sorting and aggregates to mean something.
 */

export type Rows = Record<string, Record<string, unknown>[]>;

/** mulberry32: a tiny PRNG with a fixed sequence per seed; Math.random would make every start differ. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ada',
  'Boris',
  'Clara',
  'Diego',
  'Elena',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Mira',
  'Nils',
  'Olga',
  'Pavel',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yara',
  'Zoe',
];
const LAST = [
  'Albright',
  'Brennan',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fontaine',
  'Garber',
  'Holm',
  'Ibarra',
  'Jansen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Novak',
  'Okafor',
  'Petrov',
  'Quint',
  'Rossi',
  'Sato',
  'Tanaka',
  'Umbers',
  'Varga',
  'Whitlock',
  'Yilmaz',
  'Zeller',
];
const COUNTRIES = [
  'Brazil',
  'Canada',
  'France',
  'Germany',
  'Ireland',
  'Italy',
  'Japan',
  'Nigeria',
  'Norway',
  'Poland',
  'Spain',
  'Sweden',
  'United Kingdom',
  'United States',
];
const ADJECTIVES = [
  'Silent',
  'Hidden',
  'Last',
  'Crimson',
  'Quiet',
  'Broken',
  'Golden',
  'Distant',
  'Wild',
  'Secret',
  'Paper',
  'Northern',
  'Glass',
  'Winter',
  'Burning',
  'Lost',
];
const NOUNS = [
  'River',
  'Garden',
  'Harbour',
  'Library',
  'Orchard',
  'Lighthouse',
  'Mountain',
  'Atlas',
  'Kingdom',
  'Station',
  'Island',
  'Archive',
  'Forest',
  'Bridge',
  'Compass',
  'Season',
];
const PUBLISHERS: [string, string, number][] = [
  ['Northwind Press', 'Oslo', 1921],
  ['Lantern House', 'Dublin', 1948],
  ['Blue Heron Books', 'Toronto', 1967],
  ['Meridian & Sons', 'London', 1889],
  ['Vellum Editions', 'Lyon', 1954],
  ['Cedar Lane', 'Portland', 1992],
  ['Kestrel Publishing', 'Kraków', 2003],
  ['Saffron Street', 'Lagos', 2011],
];
const TAGS = [
  'fiction',
  'mystery',
  'history',
  'science',
  'poetry',
  'travel',
  'fantasy',
  'biography',
  'classic',
  'romance',
  'thriller',
  'essays',
  'philosophy',
  'cooking',
  'children',
  'award-winner',
];
const REVIEWERS = [
  'bookworm42',
  'nightreader',
  'margin_notes',
  'the_librarian',
  'pageturner',
  'slowreader',
  'inkandcoffee',
  'dogeared',
  'readsontrains',
  'quietshelf',
];
const OPINIONS = [
  'Could not put it down.',
  'A slow start, then wonderful.',
  'Beautifully written.',
  'Not for me, I am afraid.',
  'The ending surprised me.',
  'I will read it again.',
  'Too long by half.',
  'A small masterpiece.',
  'Uneven but brave.',
  'Recommended to every friend.',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export interface SeedCounts {
  readonly authors: number;
  readonly books: number;
}

/** Generates every row of the bookshop with explicit ids, in foreign-key order. */
export function generateBookshop(counts: SeedCounts = { authors: 40, books: 160 }, seed = 20240531): Rows {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const date = (fromYear: number, toYear: number) =>
    `${between(fromYear, toYear)}-${pad(between(1, 12))}-${pad(between(1, 28))}`;

  const publishers = PUBLISHERS.map(([name, city, founded], i) => ({ id: i + 1, name, city, founded }));
  const authors = Array.from({ length: counts.authors }, (_, i) => ({
    id: i + 1,
    // One author in ten is known by a single name, so full_name and nulls both have something to show.
    first_name: i % 10 === 9 ? null : FIRST[i % FIRST.length],
    last_name: LAST[(i * 7) % LAST.length],
    born: rnd() < 0.1 ? null : date(1900, 1995),
    country: pick(COUNTRIES),
  }));
  const books = Array.from({ length: counts.books }, (_, i) => {
    const title =
      rnd() < 0.5
        ? `The ${pick(ADJECTIVES)} ${pick(NOUNS)}`
        : `${pick(NOUNS)} of the ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    return {
      id: i + 1,
      title: i % 7 === 0 ? `${title}, Volume ${1 + (i % 3)}` : title,
      isbn: `978-${between(0, 9)}-${pad(between(0, 9999), 4)}-${pad(between(0, 9999), 4)}-${between(0, 9)}`,
      published_on: rnd() < 0.05 ? null : date(1950, 2024),
      pages: between(90, 900),
      price: between(499, 4999) / 100,
      in_print: rnd() < 0.8,
      author_id: 1 + (i % counts.authors),
      publisher_id: rnd() < 0.05 ? null : 1 + Math.floor(rnd() * publishers.length),
    };
  });
  const reviews: Record<string, unknown>[] = [];
  for (const book of books) {
    for (let r = between(0, 5); r > 0; r--) {
      reviews.push({
        id: reviews.length + 1,
        book_id: book.id,
        reviewer: pick(REVIEWERS),
        rating: between(1, 5),
        body: pick(OPINIONS),
        created_at: `${date(2020, 2024)}T${pad(between(0, 23))}:${pad(between(0, 59))}:${pad(between(0, 59))}`,
      });
    }
  }
  const tags = TAGS.map((name, i) => ({ id: i + 1, name }));
  const bookTags: Record<string, unknown>[] = [];
  for (const book of books) {
    const chosen = new Set<number>();
    for (let n = between(1, 3); n > 0; n--) chosen.add(1 + Math.floor(rnd() * tags.length));
    for (const tag_id of [...chosen].sort((a, b) => a - b)) bookTags.push({ book_id: book.id, tag_id });
  }
  return { publishers, authors, books, reviews, tags, book_tags: bookTags };
}
