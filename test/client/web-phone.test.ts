// The web apps' shared phone numbers (clients/web/phone.ts): the web app's check (E.164, or nothing
// for the screen to refuse itself) beside the console's (E.164, or the text as typed for the API to
// refuse; test/admin-console/phone.test.ts has the rest of the console's).
import { describe, expect, it } from 'vitest';
import { mobileE164, toE164 } from '../../clients/web/phone.js';

describe('phone numbers for the web app', () => {
  it('turns a national or international number into E.164, and refuses what is not a whole number', () => {
    expect(mobileE164('690000000', 'CM')).toBe('+237690000000');
    expect(mobileE164(' 06 12 34 56 78 ', 'FR')).toBe('+33612345678');
    expect(mobileE164('+237 690 00 00 00', 'FR')).toBe('+237690000000');
    expect(mobileE164('6900', 'CM')).toBeUndefined();
    expect(mobileE164('', 'CM')).toBeUndefined();
    // Where the console sends the text as typed, for the API's 422.
    expect(toE164('6900', 'CM')).toBe('6900');
  });
});
