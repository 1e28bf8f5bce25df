// The create workload as a process of its own (bench:events): autocannon in the bench's process
// would share its event loop with the 10,000 stream readers, and their timing would then measure
// the load generator's lag, not the service's delivery. Reads its settings as JSON on stdin
// ({url, tokens, connections, seconds}), prints autocannon's figures as JSON on stdout.
import autocannon from 'autocannon';

const input = await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    text += chunk;
  });
  process.stdin.on('end', () => resolve(text));
});
const { url, tokens, connections, seconds } = JSON.parse(input) as {
  url: string;
  tokens: string[];
  connections: number;
  seconds: number;
};
let counter = 0;
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  requests: [
    {
      setupRequest: (request) => {
        counter += 1;
        return {
          ...request,
          method: 'POST',
          path: '/api/user/pronostic/create',
          headers: {
            authorization: `Bearer ${tokens[counter % tokens.length]}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            type_id: 1 + (counter % 6),
            teams_details: { home: `Team ${counter % 16}`, away: 'Coton Sport' },
          }),
        };
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p99: result.latency.p99,
    created: result['2xx'],
    errors: result.non2xx + result.errors,
  }),
);
