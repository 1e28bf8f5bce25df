// The HTTPS agent Web Push connects through: its address lookup refuses a name that resolves to an
// address of our own network (loopback, private, link-local, unique-local, IPv4-mapped and the like),
// so an allowed push-service name that an attacker points at 127.0.0.1 or 169.254.169.254 between
// registration and send (DNS rebinding) gets no connection. An address written in the endpoint is
// not looked up: it passes only when WEBPUSH_ALLOWED_HOSTS lists it as it is.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const ourNetwork = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  ourNetwork.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  ourNetwork.addSubnet(prefix, bits, 'ipv6');
}

/** Whether an address is one of our network's rather than the internet's. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return ourNetwork.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class NonPublicAddress extends Error {
  readonly code = 'ENONPUBLIC';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, an address of our own network: not connected`);
    this.name = 'NonPublicAddress';
  }
}

type Resolve = (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname, options) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, options, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** A `lookup` for sockets that answers only public addresses, or fails when any answer is not. */
export function publicLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const wantsAll = (options as { all?: boolean }).all === true;
    const family = (options as { family?: number }).family;
    resolve(hostname, { all: true, ...(family ? { family } : {}) }).then(
      (addresses) => {
        const refused = addresses.find((entry) => isNonPublicAddress(entry.address));
        const first = addresses[0];
        if (refused) return callback(new NonPublicAddress(hostname, refused.address), '', 0);
        if (!first)
          return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '', 0);
        // Node's socket asks for every address (happy eyeballs) or for one.
        if (wantsAll) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** The agent of Web Push's requests; `ca` lets a test trust its own push service's certificate. */
export function publicAgent(options: { ca?: string; resolve?: Resolve } = {}): Agent {
  return new Agent({
    keepAlive: true,
    lookup: publicLookup(options.resolve),
    ...(options.ca ? { ca: options.ca } : {}),
  });
}
