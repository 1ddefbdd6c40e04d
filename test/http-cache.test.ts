import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerTags } from '../src/infra/http/http-cache.ts';

const sha1Tag = (json: string) => `W/"${createHash('sha1').update(json).digest('base64url')}"`;

describe('AnswerTags: an ETag hashed once per answer', () => {
  it('gives every answer the SHA-1 of its bytes, kept or not, for any sequence of keys and texts', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('/a', '/b', '/c'),
            fc.constantFrom('', '{}', '{"x":1}', '"é✓"', 'x'.repeat(90)),
          ),
          {
            maxLength: 40,
          },
        ),
        fc.integer({ min: 1, max: 300 }),
        (calls, maxBytes) => {
          const tags = new AnswerTags(maxBytes);
          for (const [key, json] of calls) {
            const answer = tags.of(key, json);
            expect(answer.body.equals(Buffer.from(json))).toBe(true);
            expect(answer.etag).toBe(sha1Tag(json));
          }
        },
      ),
    );
  });

  it("reuses the key's last answer, unhashed, while its bytes do not change, and a new one when they do", () => {
    const tags = new AnswerTags();
    const first = tags.of('/api/bounties', '{"total":1}');
    expect(tags.of('/api/bounties', '{"total":1}')).toBe(first);
    const changed = tags.of('/api/bounties', '{"total":2}');
    expect(changed).not.toBe(first);
    expect(changed.etag).not.toBe(first.etag);
    expect(tags.of('/api/bounties', '{"total":2}')).toBe(changed);
    // Another key with the same text is its own entry, with the same tag.
    const other = tags.of('/api/bounties?page=1', '{"total":2}');
    expect(other).not.toBe(changed);
    expect(other.etag).toBe(changed.etag);
  });

  it('keeps at most maxBytes of keys, texts and bodies: past it, it starts over; a bigger answer is not kept', () => {
    const tags = new AnswerTags(70);
    const a = tags.of('/a', 'x'.repeat(15)); // 2 + 15 + 15 = 32
    const b = tags.of('/b', 'y'.repeat(15)); // 64
    expect(tags.of('/a', 'x'.repeat(15))).toBe(a);
    expect(tags.of('/b', 'y'.repeat(15))).toBe(b);
    tags.of('/c', 'z'.repeat(15)); // 96 > 70: starts over with /c alone
    expect(tags.of('/a', 'x'.repeat(15))).not.toBe(a);
    const big = tags.of('/d', 'w'.repeat(50));
    expect(tags.of('/d', 'w'.repeat(50))).not.toBe(big);
  });
});
