// One way to count things in messages a person reads: "1 unit", "9 matches", "2 Properties".

/** The word for n things: the given plural, else English's regular one (match → matches, Property → Properties). */
export function pluralWord(n: number, one: string, many?: string): string {
  if (n === 1) return one;
  if (many !== undefined) return many;
  if (/(s|x|z|ch|sh)$/i.test(one)) return `${one}es`;
  if (/[^aeiou]y$/i.test(one)) return `${one.slice(0, -1)}ies`;
  return `${one}s`;
}

/** "1 finding", "3 findings", "9 matches", "2 Properties". */
export function plural(n: number, one: string, many?: string): string {
  return `${n} ${pluralWord(n, one, many)}`;
}
