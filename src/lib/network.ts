// The client network that request limits count by: the sign-in caps and the request-rate limits
// key on it, so one subscriber cannot rotate addresses past them.
import ipaddr from 'ipaddr.js';

/**
 * Every client address that is not an IP address (an X-Forwarded-For value a client wrote, behind
 * TRUST_PROXY) is this one network: a made-up value is never a fresh network with its own share.
 */
export const NOT_AN_ADDRESS = 'not-an-address';

/**
 * An IPv4 address as is, an IPv6 one by its /64, which is what one subscriber usually holds
 * (counting single IPv6 addresses would let one line rotate past a cap). IPv4-mapped IPv6
 * addresses are their IPv4 address.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return NOT_AN_ADDRESS;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * The network a stranger's sign-ups are counted by under pressure (decision 0104): an IPv4 address
 * as is (a carrier's NAT pool is a /24 shared by thousands), an IPv6 address by its /48, the most a
 * tunnel broker hands out for free, and a home's delegation (/56) or a phone's /64 sits inside it.
 */
export function strangerNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return NOT_AN_ADDRESS;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${prefix.join(':')}::/48`;
}
