// The console converts numbers typed in national format to E.164 before calling the API (whose
// validation is unchanged): with Cameroon chosen, "670000001" is "+237670000001".
import { describe, expect, it } from 'vitest';
import { searchTermOf, toE164 } from '../../clients/web/phone.js';

describe('phone numbers typed in the console', () => {
  it('turns a national number into E.164 for the chosen country', () => {
    expect(toE164('670000001', 'CM')).toBe('+237670000001');
    expect(toE164(' 6 70 00 00 01 ', 'CM')).toBe('+237670000001');
    expect(toE164('07 01 02 03 04', 'CI')).toBe('+2250701020304');
    expect(toE164('06 12 34 56 78', 'FR')).toBe('+33612345678');
  });

  it('keeps an international number, whatever the country chosen', () => {
    expect(toE164('+237670000001', 'FR')).toBe('+237670000001');
    expect(toE164('+33 6 12 34 56 78', 'CM')).toBe('+33612345678');
  });

  it('sends what is not a whole valid number as typed, for the API to refuse with its message', () => {
    expect(toE164('67000', 'CM')).toBe('67000');
    expect(toE164('abc', 'CM')).toBe('abc');
    expect(toE164('', 'CM')).toBe('');
  });

  it('searches a whole national number as E.164, partial digits and names as typed', () => {
    expect(searchTermOf('670000001')).toBe('+237670000001');
    expect(searchTermOf('0000001')).toBe('0000001');
    expect(searchTermOf('Mbappé')).toBe('Mbappé');
    expect(searchTermOf('jean.k')).toBe('jean.k');
  });
});
