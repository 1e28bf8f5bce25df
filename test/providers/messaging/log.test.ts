import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createLogDriver } from '../../../src/providers/messaging/log.js';
import { captureLogger, codeMessage, SENTENCE, tempDir } from './helpers.js';

describe('log driver', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.remove());

  it('appends one JSON line per message to DATA_DIR/outbox.jsonl, creating the directory', async () => {
    const dataDir = join(dir.path, 'nested', 'data');
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const { logger, output } = captureLogger();
    const driver = createLogDriver({ dataDir, logger, clock });

    expect(driver.name).toBe('log');
    expect(driver.channels).toEqual(['sms', 'whatsapp']);
    await driver.send(codeMessage());
    clock.advanceSeconds(30);
    await driver.send(codeMessage({ channel: 'whatsapp', to: '+237690000002' }));

    const lines = (await readFile(join(dataDir, 'outbox.jsonl'), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([
      JSON.stringify({
        to: '+237690000001',
        channel: 'sms',
        text: SENTENCE,
        sent_at: '2026-03-10T12:00:00.000Z',
      }),
      JSON.stringify({
        to: '+237690000002',
        channel: 'whatsapp',
        text: SENTENCE,
        sent_at: '2026-03-10T12:00:30.000Z',
      }),
    ]);
    // The log is development's inbox: the sentence, code included, is there at info level.
    const first = JSON.parse(output().split('\n')[0] as string);
    expect(first).toMatchObject({ level: 30, to: '+237690000001', channel: 'sms', text: SENTENCE });
  });

  it('keeps lines whole when many messages are sent at once, from several drivers', async () => {
    const clock = new ManualClock();
    const { logger } = captureLogger();
    const drivers = [1, 2].map(() => createLogDriver({ dataDir: dir.path, logger, clock }));
    const long = `${SENTENCE} ${'x'.repeat(5000)}`;

    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        drivers[i % 2]?.send(codeMessage({ to: `+2376900${String(i).padStart(5, '0')}`, text: long })),
      ),
    );

    const lines = (await readFile(join(dir.path, 'outbox.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    const recipients = lines.map((line) => JSON.parse(line).to as string);
    expect(new Set(recipients).size).toBe(200);
  });
});
