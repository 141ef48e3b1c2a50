/**
 * Where push notifications may go. A caller names the URL, and the server POSTs task contents
 * there, so a URL into the server's own network (loopback, private, link-local, carrier-grade
 * NAT, unique-local IPv6, or the cloud metadata address) would let any caller make the server
 * talk to machines only it can reach. Deployed, such URLs are refused when a config is registered
 * and again when a notification is sent, after the host name is resolved (a public name may
 * point inward). The local stack, where the caller usually runs on the same machine, allows them.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const inward = new BlockList();
for (const [net, prefix] of [
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
  inward.addSubnet(net, prefix, 'ipv4');
}
// IPv6 forms that carry an IPv4 address (compatible, translated, NAT64, 6to4) are refused whole:
// a receiver has a plain address.
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  inward.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is one of the server's own networks (IPv4-mapped IPv6 included). */
export function isInwardAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return inward.check(mapped, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return inward.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL's literal host may not be sent to, or undefined when it may (before resolving). */
export function inwardHostReason(url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isInwardAddress(host)) {
    return `${url.hostname} is in this agent's own network`;
  }
  return undefined;
}

export type Resolve = (host: string) => Promise<readonly string[]>;

const resolveHost: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Why a URL may not be sent to after its host is resolved, or undefined when every address it
 * resolves to is public. A name that does not resolve is left to the send, which fails and retries.
 */
export async function inwardTargetReason(
  url: URL,
  resolve: Resolve = resolveHost,
): Promise<string | undefined> {
  const literal = inwardHostReason(url);
  if (literal !== undefined || isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return literal;
  let addresses: readonly string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    return undefined;
  }
  const inner = addresses.find(isInwardAddress);
  return inner === undefined
    ? undefined
    : `${url.hostname} resolves to ${inner}, in this agent's own network`;
}
