// The multipart rules of DESIGN.md on both upload routes: a missing or empty required file is a 422
// on its field at once (never a hung request); an empty optional file counts as absent (a browser
// sends one when no file is chosen); a body that is not valid multipart (wrong boundary, no closing
// boundary) is a 422 on `body`; unknown text fields are ignored; 413 only past the byte limit or
// more than 10 parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { multipart, photo } from '../profile/forms.js';
import { sendThenRead } from '../reliability/raw-http.js';

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

describe('a ticket cut short (the fuzzer’s 500 on PostgreSQL)', () => {
  // The fuzzer's replayed case: a subject, a message and a small PNG attachment (~460 bytes), no
  // closing boundary. Every cut of such a body (inside the attachment's bytes or headers, a text
  // field, the closing boundary, after a second file part) is a 422 on body and writes no ticket,
  // whether the body arrives whole or in pieces over a slow socket, and whether or not the cut
  // attachment would have passed as an image.
  const head = (name: string, file?: string) =>
    `--XyZ\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: image/png` : ''}\r\n\r\n`;
  function body(attachment: Buffer): Buffer {
    return Buffer.concat([
      Buffer.from(
        `${head('subject')}Paiement bloqué\r\n${head('message')}Mon paiement reste en attente.\r\n`,
      ),
      Buffer.from(head('attachment', 'capture.png')),
      attachment,
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
  }
  const CLOSING = '\r\n--XyZ--\r\n'.length;
  const cuts: Record<string, (whole: Buffer) => Buffer> = {
    'after the attachment, before its boundary': (whole) => whole.subarray(0, whole.length - CLOSING),
    'after the attachment line (CRLF kept)': (whole) => whole.subarray(0, whole.length - CLOSING + 2),
    'inside the attachment': (whole) => whole.subarray(0, whole.length - CLOSING - 200),
    'inside the closing boundary': (whole) => whole.subarray(0, whole.length - CLOSING + 5),
    'inside the attachment’s headers': (whole) =>
      whole.subarray(0, whole.indexOf('Content-Type: image/png') + 10),
    'inside the message': (whole) => whole.subarray(0, whole.indexOf('Mon paiement') + 5),
    'after a second file part, unclosed': (whole) =>
      Buffer.concat([
        whole.subarray(0, whole.length - CLOSING),
        Buffer.from(`\r\n${head('avatar', 'x.png')}`),
        whole.subarray(0, 10),
        Buffer.from('\r\n'),
      ]),
  };
  const attachments: Record<string, () => Promise<Buffer>> = {
    'a real PNG': async () => {
      const png = await photo(12, 12);
      expect(png.length).toBeLessThan(1024);
      return png;
    },
    'PNG-signed garbage': async () =>
      Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(452, 7)]),
  };

  async function ticketCount(): Promise<number> {
    return (await t.app.services.support.listOwn(user, { page: 1 })).meta.total;
  }

  for (const [kind, attachment] of Object.entries(attachments)) {
    for (const [where, cut] of Object.entries(cuts)) {
      it(`${kind}, ${where}: 422 on body, nothing written`, async () => {
        const before = await ticketCount();
        const response = await post(TICKET, {
          payload: cut(body(await attachment())),
          headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        });
        expect(response.statusCode, response.body).toBe(422);
        expect(Object.keys(response.json().errors)).toEqual(['body']);
        expect(await ticketCount()).toBe(before);
      });

      it(`${kind}, ${where}, sent over a socket in pieces: 422 on body, nothing written`, async () => {
        if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as { port: number }).port;
        const before = await ticketCount();
        const sent = cut(body(await attachment()));
        const request = [
          `POST ${TICKET} HTTP/1.1`,
          'Host: test',
          'Content-Type: multipart/form-data; boundary=XyZ',
          `Content-Length: ${sent.length}`,
          `Authorization: ${user.headers.authorization}`,
          '',
          '',
        ].join('\r\n');
        // A slow link: the parts arrive one by one, the attachment split across writes.
        const pieces = [0, 150, 300, 450, 600].map((from, i, all) =>
          sent.subarray(from, all[i + 1] ?? sent.length),
        );
        const answer = await sendThenRead(port, request, pieces);
        expect(answer.status, answer.body).toBe(422);
        expect(Object.keys(JSON.parse(answer.body).errors)).toEqual(['body']);
        expect(await ticketCount()).toBe(before);
      });
    }
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
