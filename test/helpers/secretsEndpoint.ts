import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerSecretStore } from '../../src/adapters/aws/secretsManagerStore.js';

export interface SecretsEndpoint {
  readonly endpoint: string;
  /** The SecretId of every GetSecretValue request, in order. */
  readonly requests: string[];
  /** The Secrets Manager store of Switchboard, pointed at this endpoint. */
  store(options?: { prefix?: string; maxAgeSeconds?: number }): SecretsManagerSecretStore;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that answers Secrets Manager's `GetSecretValue` (the JSON protocol the
 * AWS SDK speaks) from a map, so the real SDK and Powertools run against it.
 */
/** A stored secret: its text, binary contents, or the error Secrets Manager answers for it. */
export type StoredSecret = string | { readonly binary: Uint8Array } | { readonly error: string };

export async function startSecretsEndpoint(
  secrets: Readonly<Record<string, StoredSecret>>,
): Promise<SecretsEndpoint> {
  const requests: string[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = request.headers['x-amz-target'];
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      SecretId?: string;
    };
    const id = body.SecretId ?? '';
    requests.push(id);
    const value = secrets[id];
    const send = (status: number, data: unknown, errorType?: string) =>
      response
        .writeHead(status, {
          'content-type': 'application/x-amz-json-1.1',
          ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
        })
        .end(JSON.stringify(data));
    if (target !== 'secretsmanager.GetSecretValue') {
      return send(400, { __type: 'UnknownOperationException' }, 'UnknownOperationException');
    }
    if (typeof value === 'object' && 'error' in value) {
      return send(400, { __type: value.error, message: 'refused on purpose' }, value.error);
    }
    if (value === undefined) {
      return send(
        400,
        { __type: 'ResourceNotFoundException', message: 'Secrets Manager can’t find the secret.' },
        'ResourceNotFoundException',
      );
    }
    return send(200, {
      ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${id}-AbCdEf`,
      Name: id,
      ...(typeof value === 'string'
        ? { SecretString: value }
        : { SecretBinary: Buffer.from(value.binary).toString('base64') }),
      VersionId: 'v1',
      CreatedDate: 1_700_000_000,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    requests,
    store: (options = {}) =>
      new SecretsManagerSecretStore({
        ...options,
        provider: new SecretsProvider({
          clientConfig: {
            endpoint,
            region: 'us-east-1',
            credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
          },
        }),
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
