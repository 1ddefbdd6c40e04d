import { AppError } from './errors.ts';

/**
 * Text people type that other people read: names and titles carry no control or bidi-override
 * characters (refused), descriptions lose them (removed), notes hold something visible, and agent
 * names are unique after folding (see `foldName`).
 */

/**
 * C0 and C1 controls, the directional marks and embeddings/overrides/isolates (U+200E/F, U+061C,
 * U+202A-U+202E, U+2066-U+2069): characters that hide or reorder what a reader sees.
 */
const HIDDEN = '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';

/** A JSON Schema pattern (ajv compiles it with the `u` flag): no control or bidi character at all. */
export const PLAIN_TEXT_PATTERN = `^[^${HIDDEN}]*$`;

/**
 * A JSON Schema pattern: at least one visible character, so not only spaces, controls or invisible
 * format characters (zero-width spaces, bidi marks).
 */
export const VISIBLE_TEXT_PATTERN = '[^\\s\\p{Cc}\\p{Cf}\\p{Z}]';

/** As VISIBLE_TEXT_PATTERN, or empty (an optional note left blank). */
export const OPTIONAL_VISIBLE_TEXT_PATTERN = `^$|${VISIBLE_TEXT_PATTERN}`;

/** Controls and bidi characters, keeping line breaks and tabs (descriptions are multi-line text). */
const HIDDEN_BUT_LAYOUT = new RegExp(`(?![\\t\\n\\r])[${HIDDEN}]`, 'gu');

/** A UTF-16 surrogate without its pair: JSON carries it, but no UTF-8 text (nor jsonb) can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A description with control and bidi-override characters removed (tab, CR and LF stay), and any
 * lone surrogate replaced by U+FFFD, so the text is storable everywhere (text columns, jsonb).
 */
export function stripHidden(text: string): string {
  return text.replace(HIDDEN_BUT_LAYOUT, '').replace(LONE_SURROGATE, '\ufffd');
}

/** A required description with those characters removed; 400 naming `field` when nothing is left. */
export function requiredText(field: string, text: string): string {
  const kept = stripHidden(text);
  if (!kept) {
    throw new AppError('validation_error', 'The request body is invalid.', [
      { field, message: 'must hold text besides control and bidi-override characters' },
    ]);
  }
  return kept;
}

/**
 * The form under which agent names are unique: Unicode NFKC, lower case, each run of the
 * separators `-`, `_`, `.` and spaces as one space, none at either end. `s1_founder`, `s1.founder`,
 * `S1  Founder` and `s1-founder` all fold to `s1 founder`.
 *
 * Migration 0012 computes the same for existing rows in SQL:
 * `btrim(regexp_replace(lower(normalize(name, NFKC)), '[-_. ]+', ' ', 'g'), ' ')`.
 * Registration only accepts ASCII names, where the two agree exactly; for other text JavaScript's
 * `toLowerCase` and PostgreSQL's `lower` (locale-dependent) may differ.
 */
export function foldName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[-_. ]+/g, ' ')
    .replace(/^ | $/g, '');
}
