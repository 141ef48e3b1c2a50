/** JWTs signed with node's crypto, and a JWKS endpoint on loopback, for the tests. */
import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SigningKey {
  readonly kid: string;
  readonly alg: 'RS256' | 'ES256';
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
}

export function signingKey(kid: string, alg: 'RS256' | 'ES256'): SigningKey {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    kid,
    alg,
    privateKey,
    jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' },
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed with a key of the JWKS (or a shared secret, HS256). */
export function jwt(
  claims: Record<string, unknown>,
  key: SigningKey | { secret: string },
  header: Record<string, unknown> = {},
): string {
  const alg = 'secret' in key ? 'HS256' : key.alg;
  const head = b64({ alg, typ: 'JWT', ...('kid' in key ? { kid: key.kid } : {}), ...header });
  const body = b64(claims);
  const data = Buffer.from(`${head}.${body}`);
  const signature =
    'secret' in key
      ? createHmac('sha256', key.secret).update(data).digest()
      : sign(
          'sha256',
          data,
          alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey,
        );
  return `${head}.${body}.${signature.toString('base64url')}`;
}

/** Serves `{ keys }` at `<url>/jwks.json` and counts the reads. */
export async function jwksServer(keys: readonly SigningKey[]) {
  let reads = 0;
  const server = createServer((_req, res) => {
    reads++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  return {
    url,
    get reads() {
      return reads;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
