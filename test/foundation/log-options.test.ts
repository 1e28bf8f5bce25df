import { describe, expect, it } from 'vitest';
import { logOptions } from '../../src/lib/log-options.js';

describe('log options', () => {
  it('a developer terminal gets readable lines through pino-pretty', () => {
    const options = logOptions({ appEnv: 'development', logLevel: 'info' }, { isTTY: true });
    expect(options.transport).toMatchObject({ target: 'pino-pretty', options: { destination: 1 } });
    expect(options.level).toBe('info');
  });

  it('JSON when the output is not a terminal, or outside development', () => {
    expect(
      logOptions({ appEnv: 'development', logLevel: 'info' }, { isTTY: false }).transport,
    ).toBeUndefined();
    expect(logOptions({ appEnv: 'development', logLevel: 'info' }).transport).toBeUndefined();
    expect(logOptions({ appEnv: 'production', logLevel: 'info' }, { isTTY: true }).transport).toBeUndefined();
  });

  it('authorization and cookie headers are redacted either way', () => {
    expect(logOptions({ appEnv: 'production', logLevel: 'warn' }).redact).toEqual([
      'req.headers.authorization',
      'req.headers.cookie',
    ]);
  });

  it('pino-pretty is installed as a runtime dependency', async () => {
    await expect(import('pino-pretty')).resolves.toBeDefined();
  });
});

describe('the access log', () => {
  it('redacts the phone, search and stream_key query values, and nothing else', async () => {
    const { redactUrl } = await import('../../src/lib/log-options.js');
    expect(redactUrl('/api/admin/users?search=%2B237670000001&page=2&phone=+237670000002')).toBe(
      '/api/admin/users?search=[redacted]&page=2&phone=[redacted]',
    );
    expect(redactUrl('/api/user/events?stream_key=abc')).toBe('/api/user/events?stream_key=[redacted]');
    expect(redactUrl('/api/user/pronostics?page=1')).toBe('/api/user/pronostics?page=1');
  });

  it('a request line in the log carries no phone number from the query', async () => {
    const { createTestApp } = await import('../helpers.js');
    const lines: string[] = [];
    const t = await createTestApp({
      logger: {
        ...logOptions({ appEnv: 'production', logLevel: 'info' }),
        stream: { write: (line: string) => void lines.push(line) },
      },
    });
    try {
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/withdrawals?phone=%2B237670009999&search=670009999',
      });
      const logged = lines.join('\n');
      expect(logged).toContain('/api/admin/withdrawals?phone=[redacted]');
      expect(logged).not.toContain('670009999');
    } finally {
      await t.close();
    }
  });
});
