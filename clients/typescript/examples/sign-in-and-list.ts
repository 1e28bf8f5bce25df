// The README's example, type-checked by `npm run typecheck`: sign in, then one page of a list.
import { createPronosticsClient, dataOf } from '../index.js';

export async function signInAndList(baseUrl: string, phone: string, code: string) {
  let token: string | null = null;
  const api = createPronosticsClient({ baseUrl, token: () => token });

  await dataOf(api.POST('/api/otp/generate', { body: { phone, country: 'CM', method: 'sms' } }));
  token = (await dataOf(api.POST('/api/otp/verify', { body: { phone, code } }))).token;

  const { pronostics, meta } = await dataOf(
    api.GET('/api/user/pronostics', { params: { query: { page: 1, per_page: 20 } } }),
  );
  return { count: pronostics.length, page: `${meta.current_page}/${meta.last_page}`, more: meta.has_more };
}
