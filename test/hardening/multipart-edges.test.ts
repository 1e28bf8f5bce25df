// The multipart rules of DESIGN.md on both upload routes: a missing or empty required file is a 422
// on its field at once (never a hung request); an empty optional file counts as absent (a browser
// sends one when no file is chosen); a body that is not valid multipart (wrong boundary, no closing
// boundary) is a 422 on `body`; unknown text fields are ignored; 413 only past the byte limit or
// more than 10 parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { multipart, photo } from '../profile/forms.js';

let t: TestApp;
let user: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

const AVATAR = '/api/user/profile/avatar';
const TICKET = '/api/user/support/ticket/create';
const ticketFields: [string, string][] = [
  ['subject', 'Paiement bloqué'],
  ['message', 'Mon paiement reste en attente depuis hier soir.'],
];

async function post(url: string, form: { payload: Buffer; headers: Record<string, string> }) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...user.headers, ...form.headers },
    payload: form.payload,
  });
}

/** A multipart body written by hand, for the shapes FormData never produces. */
function rawForm(body: string, boundary = 'XyZ') {
  return {
    payload: Buffer.from(body.replaceAll('\n', '\r\n')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('empty files', () => {
  it('an empty avatar is a 422 on avatar', async () => {
    const response = await post(
      AVATAR,
      await multipart([['avatar', new Uint8Array(0), 'vide.png', 'image/png']]),
    );
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['avatar']);
  });

  it('an empty attachment counts as absent: the ticket is created without one', async () => {
    const response = await post(
      TICKET,
      await multipart([...ticketFields, ['attachment', new Uint8Array(0), '', 'application/octet-stream']]),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.ticket.attachment).toBeNull();
  });
});

describe('broken multipart bodies', () => {
  for (const url of [AVATAR, TICKET]) {
    it(`${url}: a wrong boundary is a 422 on body`, async () => {
      const form = rawForm(
        '--AbC\nContent-Disposition: form-data; name="subject"\n\nBonjour\n--AbC--\n',
        'XyZ',
      );
      const response = await post(url, form);
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['body']);
    });

    it(`${url}: no closing boundary is a 422 on body`, async () => {
      const form = rawForm(
        '--XyZ\nContent-Disposition: form-data; name="avatar"; filename="a.png"\nContent-Type: image/png\n\n\x89PNG\r\n\x1a\nabc',
      );
      const response = await post(url, form);
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['body']);
    });
  }
});

describe('extra fields and the part count', () => {
  it('an unknown text field is ignored: the avatar is still required, the ticket still made', async () => {
    const noFile = await post(AVATAR, await multipart([['note', 'bonjour']]));
    expect(noFile.statusCode).toBe(422);
    expect(Object.keys(noFile.json().errors)).toEqual(['avatar']);
    const withFile = await post(
      AVATAR,
      await multipart([
        ['note', 'bonjour'],
        ['avatar', await photo(64, 64), 'a.png', 'image/png'],
      ]),
    );
    expect(withFile.statusCode, withFile.body).toBe(200);
    const ticket = await post(TICKET, await multipart([...ticketFields, ['source', 'web']]));
    expect(ticket.statusCode, ticket.body).toBe(201);
  });

  it('more than 10 parts is a 413 in the envelope', async () => {
    const entries: [string, string][] = Array.from({ length: 11 }, (_, i) => [`f${i}`, 'x']);
    for (const url of [AVATAR, TICKET]) {
      const response = await post(url, await multipart(entries));
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toMatchObject({ data: [], errors: [] });
    }
  });
});
