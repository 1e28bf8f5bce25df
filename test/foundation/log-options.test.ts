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
