// The development push driver: each notification is one JSON line in DATA_DIR/push-outbox.jsonl
// (and the log), with the token shortened to its end; nothing leaves the machine.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../src/config.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPushDriver } from '../../../src/providers/push/index.js';
import { PUSH_OUTBOX_FILE } from '../../../src/providers/push/log.js';

describe('the log push driver', () => {
  it('appends one line per notification to DATA_DIR/push-outbox.jsonl, never the whole token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'push-log-'));
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const driver = createPushDriver(
      {
        pushDriver: 'log',
        dataDir,
        fcm: { serviceAccount: undefined, projectId: undefined, baseUrl: 'http://x' },
        webpush: testConfig().webpush,
        pushMaxAgeSeconds: 3600,
      },
      { clock, logger: pino({ level: 'silent' }) },
    );
    expect(driver.name).toBe('log');
    const token = `secret-token-${'z'.repeat(100)}-END12345`;
    const message = {
      deviceId: 3,
      token,
      platform: 'ios' as const,
      title: 'Votre analyse est prête',
      body: 'Ouvrez l’application pour découvrir votre pronostic.',
      data: { type: 'pronostic.succeeded', seq: '4', id: '12', created_at: '2026-03-10T11:59:00.000000Z' },
    };
    expect(await driver.send(message)).toEqual({ outcome: 'sent' });
    expect(await driver.send({ ...message, deviceId: 4 })).toEqual({ outcome: 'sent' });
    const text = readFileSync(join(dataDir, PUSH_OUTBOX_FILE), 'utf8');
    expect(text).not.toContain('secret-token');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        device_id: 3,
        token: '…END12345',
        platform: 'ios',
        title: message.title,
        body: message.body,
        data: message.data,
        sent_at: '2026-03-10T12:00:00.000Z',
      },
      expect.objectContaining({ device_id: 4 }),
    ]);
  });

  it('PUSH_DRIVER=fcm without a service account is a start error', () => {
    expect(() =>
      createPushDriver(
        {
          pushDriver: 'fcm',
          dataDir: '/tmp',
          fcm: { serviceAccount: undefined, projectId: undefined, baseUrl: 'http://x' },
          webpush: testConfig().webpush,
          pushMaxAgeSeconds: 3600,
        },
        { clock: new ManualClock(), logger: pino({ level: 'silent' }) },
      ),
    ).toThrow('FCM_SERVICE_ACCOUNT is required when PUSH_DRIVER=fcm');
  });
});
