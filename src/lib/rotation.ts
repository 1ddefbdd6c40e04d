/**
 * A list too long for one look, read a page per turn in its key's order: each turn goes on after
 * the last page's key, and from the first again once a page came back short (or empty, at once),
 * so with more rows than a page holds, each row is still read every few turns. One page read on
 * every turn, unordered or from the same first key, can give the same rows each time and never
 * reach the others.
 */
export class Rotation<K> {
  private after: K | null = null;

  /** The next page: `read(after, limit)` gives at most `limit` rows after `after` (null: from the first), in key order. */
  async next<R>(
    limit: number,
    read: (after: K | null, limit: number) => Promise<R[]>,
    keyOf: (row: R) => K,
  ): Promise<R[]> {
    let page = await read(this.after, limit);
    if (page.length === 0 && this.after !== null) page = await read(null, limit);
    const last = page.at(-1);
    this.after = page.length < limit || last === undefined ? null : keyOf(last);
    return page;
  }
}
