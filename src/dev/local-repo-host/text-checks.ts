import type { Body, FieldError } from './responses.ts';

// C0 control characters and DEL. Names, titles, branches and logins are one line and take none;
// multi-line text (a pull request's body, a repository's description, a merge commit's message)
// keeps tab, line feed and carriage return.
const MULTI_LINE = new Set(['body', 'description', 'commit_message']);
const LINE_BREAKS_AND_TAB = new Set([0x09, 0x0a, 0x0d]);

/** The first control character `text` may not hold, as `U+XXXX`, or null. */
function firstControl(text: string, multiLine: boolean): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 || c === 0x7f) && !(multiLine && LINE_BREAKS_AND_TAB.has(c)))
      return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/**
 * A write's string fields (nested ones too) that hold a control character, as GitHub's
 * `validation-error` items of `resource` (GitHub refuses them too): such text is refused whole (422), never stored, so no
 * page, git commit or webhook ever carries it.
 */
export function controlCharacterErrors(body: Body, resource: string): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (value: unknown, field: string, key: string): void => {
    if (typeof value === 'string') {
      const found = firstControl(value, MULTI_LINE.has(key));
      if (found)
        errors.push({
          resource,
          code: 'custom',
          field,
          // GitHub's own wording for a repository description with one.
          message: `${field} control characters are not allowed (${found})`,
        });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        visit(v, `${field}[${i}]`, key);
      });
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) visit(v, `${field}.${k}`, k);
    }
  };
  for (const [k, v] of Object.entries(body)) visit(v, k, k);
  return errors;
}
