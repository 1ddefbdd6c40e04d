import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/web/markdown.ts';

describe('renderMarkdown', () => {
  it('renders what people write: emphasis, code, lists, tables, headings below the page own', () => {
    const html = renderMarkdown(
      '# Goal\n\n**Bold** and `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h4 class="md-heading">Goal</h4>');
    expect(html).toContain('<strong>Bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td>1</td>');
    expect(html.startsWith('<div class="md">')).toBe(true);
  });

  it('never lets raw HTML, event handlers or script links through', () => {
    const evil = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '<a href="javascript:alert(3)">x</a>',
      '[click](javascript:alert(4))',
      '[data](data:text/html;base64,PHNjcmlwdD4=)',
      '[vb](vbscript:msgbox)',
      '[rel](/console/account)',
      '![img](https://tracker.example/p.gif)',
      '<style>body{display:none}</style>',
      '<iframe src="https://evil.example"></iframe>',
    ].join('\n\n');
    const html = renderMarkdown(evil);
    expect(html).not.toMatch(
      /<script|<img|<iframe|<style|<a href="javascript|<a href="data|<a href="vbscript|<a href="\//i,
    );
    // Shown as text (escaped), never as an attribute of a tag.
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(html).toContain('onerror=&quot;alert(2)&quot;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('links http(s) and bare addresses with rel="nofollow ugc noopener"', () => {
    const html = renderMarkdown('See [docs](https://example.com/a?b=1&c=2) or https://example.org');
    expect(html).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow ugc noopener">docs</a>',
    );
    expect(html).toContain(
      '<a href="https://example.org" rel="nofollow ugc noopener">https://example.org</a>',
    );
  });

  it('is empty for nothing, and keeps line breaks', () => {
    expect(renderMarkdown(null)).toBe('');
    expect(renderMarkdown('   ')).toBe('');
    expect(renderMarkdown('a\nb')).toContain('a<br>\nb');
  });
});
