// A development outbox: one JSON line per record appended to a file (the log drivers' "phone" a
// developer or a black-box test reads). Appends run one after the other, so the lines keep their
// order; each is a single small O_APPEND write, which keeps it whole beside another process's lines.
// The file holds codes, phone numbers and push tokens' ends: owner only.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export function jsonLinesAppender(file: string): (record: object) => Promise<void> {
  let appending: Promise<void> = Promise.resolve();
  return (record) => {
    const line = `${JSON.stringify(record)}\n`;
    const next = appending
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await appendFile(file, line, { encoding: 'utf8', flag: 'a', mode: 0o600 });
      });
    appending = next;
    return next;
  };
}
