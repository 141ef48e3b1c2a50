/**
 * The gRPC transport of the A2A client, in a module of its own: it carries gRPC and protobuf
 * (about 550 KB bundled), so it is loaded only for an agent whose card offers no HTTP interface.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { credentials } from '@grpc/grpc-js';

const GRPC = 'GRPC';
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/** The transport factory for the card's gRPC interfaces. */
export function grpcTransportFactory(card: AgentCard): GrpcTransportFactory {
  return new GrpcTransportFactory({
    legacyCompat: { enabled: true },
    grpcChannelCredentials: grpcChannelOf(card),
  });
}

/**
 * The channel credentials of the card's gRPC interfaces: TLS, except for an agent whose gRPC
 * interfaces are all on loopback (a sidecar or a local test agent), which is spoken to in plain.
 */
function grpcChannelOf(card: AgentCard) {
  const hosts = card.supportedInterfaces
    .filter((i) => i.protocolBinding === GRPC)
    .map((i) => i.url.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, ''));
  return hosts.length > 0 && hosts.every((host) => LOOPBACK.test(host))
    ? credentials.createInsecure()
    : credentials.createSsl();
}
