import type { AgentCard } from '@a2a-js/sdk';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { grpcTransportFactory } from '../../../src/a2a/grpc.js';

/** A card offering each of `interfaces` (binding and URL), in A2A `version`. */
function cardOffering(interfaces: [binding: string, url: string][], version = '1.0'): AgentCard {
  return {
    name: 'shop',
    supportedInterfaces: interfaces.map(([protocolBinding, url]) => ({
      protocolBinding,
      url,
      protocolVersion: version,
      tenant: '',
    })),
  } as unknown as AgentCard;
}

/** Whether the factory's channels speak TLS. */
function speaksTls(card: AgentCard): boolean {
  const factory = grpcTransportFactory(card) as unknown as {
    options: { grpcChannelCredentials: ChannelCredentials };
  };
  return factory.options.grpcChannelCredentials._isSecure();
}

describe('grpcTransportFactory', () => {
  it('speaks in plain to an agent whose gRPC interfaces are all on loopback', () => {
    for (const url of [
      '127.0.0.1:50051',
      'localhost:50051',
      '[::1]:50051',
      'http://127.0.0.2:50051',
      'grpc://localhost/a2a',
      'GRPC://localhost:50051',
      '127.10.20.30',
    ]) {
      expect(speaksTls(cardOffering([['GRPC', url]])), url).toBe(false);
    }
  });

  it('speaks TLS to an agent with a gRPC interface off loopback, or none at all', () => {
    for (const url of [
      'shop.example:443',
      'https://shop.example/a2a',
      '10.0.0.1:50051',
      'localhost.example:50051',
      'my-localhost:50051',
      '127.0.0.1.example:50051',
      '127.0.0.1:50051x',
      '[::1]x:50051',
    ]) {
      expect(speaksTls(cardOffering([['GRPC', url]])), url).toBe(true);
    }
    expect(
      speaksTls(
        cardOffering([
          ['GRPC', 'localhost:50051'],
          ['GRPC', 'shop.example:443'],
        ]),
      ),
    ).toBe(true);
    expect(speaksTls(cardOffering([]))).toBe(true);
  });

  it('reads a scheme only at the start of a URL, not one further on that would leave a loopback host', () => {
    expect(speaksTls(cardOffering([['GRPC', '127.0.0.1:5005x://1']]))).toBe(true);
  });

  it('reads only the gRPC interfaces: an HTTP one on another host does not bring TLS', () => {
    const card = cardOffering([
      ['JSONRPC', 'https://shop.example/a2a'],
      ['GRPC', '127.0.0.1:50051'],
    ]);

    expect(speaksTls(card)).toBe(false);
  });

  it('speaks A2A 0.3 over gRPC to an interface of 0.3, and 1.0 to one of 1.0', async () => {
    const legacy = cardOffering([['GRPC', '127.0.0.1:50051']], '0.3');
    const current = cardOffering([['GRPC', '127.0.0.1:50051']], '1.0');

    const old = await grpcTransportFactory(legacy).create('127.0.0.1:50051', legacy);
    const now = await grpcTransportFactory(current).create('127.0.0.1:50051', current);

    expect(old.protocolVersion).toBe('0.3');
    expect(now.protocolVersion).toBe('1.0');
    expect(old.protocolName).toBe('GRPC');
  });
});
