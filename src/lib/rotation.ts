/**
 * A list too long for one look, read a page per turn in its key's order: each turn goes on after
 * the last page's key, and a page that reaches the list's end is filled up from its first rows,
 * where the next turn goes on. With more rows than a page holds, each row is still read every few
 * turns; one page read on every turn (unordered, or from the same first key) can give the same
 * rows each time and never reach the others. Keys need not be unique (a signer's requests): a
 * turn that ends inside a key's rows goes on after that key, and the rows it did not reach come
 * next round.
 */
export class Rotation<K> {
  private after: K | null = null;

  /**
   * The next page: `read(after, limit)` gives at most `limit` rows after `after` (null: from the
   * first), in key order; `idOf` tells rows apart when a page is filled up from the first rows.
   */
  async next<R>(
    limit: number,
    read: (after: K | null, limit: number) => Promise<R[]>,
    keyOf: (row: R) => K,
    idOf: (row: R) => unknown = keyOf,
  ): Promise<R[]> {
    let page = await read(this.after, limit);
    if (page.length < limit && this.after !== null) {
      const seen = new Set(page.map(idOf));
      const head = await read(null, limit - page.length);
      page = [...page, ...head.filter((row) => !seen.has(idOf(row)))];
    }
    const last = page.at(-1);
    this.after = page.length < limit || last === undefined ? null : keyOf(last);
    return page;
  }
}
