import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TurnWriter } from '../src/infra/log-writer.ts';
import { createLogger } from '../src/infra/logger.ts';

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function tempFile() {
  const path = join(mkdtempSync(join(tmpdir(), 'log-writer-')), 'out.log');
  const fd = openSync(path, 'w');
  return { fd, read: () => readFileSync(path, 'utf8') };
}

describe('TurnWriter: log lines written once per event-loop turn', () => {
  it('writes nothing while the turn runs, then every line of the turn, in order, at its end', async () => {
    const file = tempFile();
    const out = new TurnWriter(file.fd);
    out.write('{"n":1}\n');
    out.write('{"n":2}\n');
    expect(file.read()).toBe('');
    await endOfTurn();
    expect(file.read()).toBe('{"n":1}\n{"n":2}\n');
    out.write('{"n":3}\n');
    await endOfTurn();
    expect(file.read()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('writes an error line at once, with every line pending before it', () => {
    const file = tempFile();
    const logger = createLogger({ logLevel: 'info' }, new TurnWriter(file.fd));
    logger.info('before');
    expect(file.read()).toBe('');
    logger.error('broken');
    const lines = file
      .read()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; level: number });
    expect(lines.map((l) => [l.msg, l.level])).toEqual([
      ['before', 30],
      ['broken', 50],
    ]);
  });

  it('writes what is pending on flush (pino calls it with a callback), and on a long turn past 64 KB', () => {
    const file = tempFile();
    const out = new TurnWriter(file.fd);
    out.write('a\n');
    let called = false;
    out.flush(() => {
      called = true;
    });
    expect(called).toBe(true);
    expect(file.read()).toBe('a\n');
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(line);
    expect(file.read().length).toBe(2 + 64 * 1024);
  });

  it('keeps non-ASCII text whole', async () => {
    const file = tempFile();
    const out = new TurnWriter(file.fd);
    out.write('{"msg":"zürich ✓ 🚀"}\n');
    await endOfTurn();
    expect(file.read()).toBe('{"msg":"zürich ✓ 🚀"}\n');
  });

  it('drops the lines, without throwing, when the destination is gone', async () => {
    const file = tempFile();
    const out = new TurnWriter(file.fd);
    closeSync(file.fd);
    out.write('lost\n');
    expect(() => out.flush()).not.toThrow();
    await endOfTurn();
  });

  it('writes the lines logged just before process.exit()', () => {
    const writer = fileURLToPath(new URL('../src/infra/log-writer.ts', import.meta.url));
    const script = `
      const { TurnWriter } = await import(${JSON.stringify(writer)});
      const out = new TurnWriter(1);
      out.write('first\\n');
      out.write('last\\n');
      process.exit(3);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
    expect(child.stdout).toBe('first\nlast\n');
  });

  it('gives two loggers of one process one stdout writer: their lines in the order they were logged', () => {
    const logger = fileURLToPath(new URL('../src/infra/logger.ts', import.meta.url));
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const a = createLogger({ logLevel: 'info', logFormat: 'json' });
      const b = createLogger({ logLevel: 'info', logFormat: 'json' });
      a.info('one'); b.info('two'); a.info('three');
      setImmediate(() => { b.info('four'); process.exit(0); });
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const messages = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).msg);
    expect(messages).toEqual(['one', 'two', 'three', 'four']);
  });
});
