/**
 * Serves an A2A agent (an SDK `AgentExecutor`) on loopback with the SDK's express handlers:
 * JSON-RPC and HTTP+JSON (and gRPC on a port of its own when asked), on A2A 1.0, on 0.3 only
 * (a 0.3 card, and 1.0 requests refused), or on both. Push notifications go out through the SDK's sender. The example's demo agent runs
 * on it; so do the test agents.
 */
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard } from '@a2a-js/sdk';
import { legacyAgentCardRouter } from '@a2a-js/sdk/compat/v0_3/server/express';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../resilience/index.js';
import { DemoPushSender } from './pushSender.js';

/** The protocol bindings an agent is served on. */
export type A2ABinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** Which A2A versions the agent speaks: 0.3 only is what most deployed agents are. */
export type A2AHostVersions = '1.0' | '0.3' | 'both';

export interface A2AHostOptions {
  readonly name: string;
  readonly description: string;
  readonly executor: AgentExecutor;
  readonly versions?: A2AHostVersions;
  readonly port?: number;
  readonly streaming?: boolean;
  readonly pushNotifications?: boolean;
  /** Also serve gRPC (on a port of its own), offered last in the card. */
  readonly grpc?: boolean;
  /** Whether a request carries a valid credential (the card is public); 401 otherwise. */
  readonly authorize?: (request: { readonly headers: IncomingHttpHeaders }) => boolean;
  /** Sees the headers (gRPC: the metadata) of every A2A request, and its binding, first. */
  readonly onRequest?: (headers: IncomingHttpHeaders, binding: A2ABinding) => void;
  readonly skills?: readonly { id: string; name: string; description: string }[];
  /** Where it logs (JSON lines, as the stack does); nothing when absent. */
  readonly logger?: Logger;
}

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface A2AHost {
  readonly url: string;
  readonly port: number;
  /** The URL of the agent card. */
  readonly cardUrl: string;
  /** The card as served to 1.0 clients (0.3-only agents serve it in 0.3 shape). */
  readonly card: AgentCard;
  close(): Promise<void>;
}

const JSONRPC_PATH = '/a2a/jsonrpc';
const REST_PATH = '/a2a/rest';
export const CARD_PATH = '/.well-known/agent-card.json';

export async function startA2AHost(options: A2AHostOptions): Promise<A2AHost> {
  const versions = options.versions ?? 'both';
  const app = express();
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const grpcServer = options.grpc ? new grpc.Server() : undefined;
  const grpcPort = grpcServer ? await bindGrpc(grpcServer) : undefined;
  const interfaces = (['1.0', '0.3'] as const)
    .filter((v) => versions === 'both' || versions === v)
    .flatMap((protocolVersion) => [
      { url: `${url}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion, tenant: '' },
      { url: `${url}${REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion, tenant: '' },
      ...(grpcPort === undefined
        ? []
        : [{ url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion, tenant: '' }]),
    ]);
  const card = AgentCard.fromJSON({
    name: options.name,
    description: options.description,
    version: '1.0.0',
    supportedInterfaces: interfaces,
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: options.pushNotifications ?? true,
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: (options.skills ?? []).map((s) => ({ ...s, tags: [] })),
  });
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    options.executor,
    undefined,
    pushStore,
    new DemoPushSender(pushStore, options.logger ?? SILENT),
  );
  const legacyCompat = { enabled: versions !== '1.0' };
  if (grpcServer) {
    const userBuilder = async (call: { metadata: grpc.Metadata }) => {
      const headers = call.metadata.getMap() as IncomingHttpHeaders;
      options.onRequest?.(headers, 'GRPC');
      if (options.authorize && !options.authorize({ headers })) {
        throw new Error('missing or invalid credentials');
      }
      return UserBuilder.noAuthentication();
    };
    if (versions !== '0.3') {
      grpcServer.addService(A2AService, grpcService({ requestHandler: handler, userBuilder }));
    }
    if (versions !== '1.0') {
      grpcServer.addService(
        LegacyA2AService,
        legacyGrpcService({ requestHandler: handler, userBuilder }),
      );
    }
  }
  const guard = (request: Request, response: Response, next: NextFunction): void => {
    options.onRequest?.(request.headers, request.baseUrl === REST_PATH ? 'HTTP+JSON' : 'JSONRPC');
    if (options.authorize && !options.authorize(request)) {
      response.status(401).json({ error: 'missing or invalid credentials' });
      return;
    }
    const version = request.header('a2a-version');
    if (versions === '0.3' && version !== undefined && !version.startsWith('0.')) {
      response.status(400).json({ error: `A2A version ${version} is not supported; use 0.3` });
      return;
    }
    next();
  };
  app.use(
    CARD_PATH,
    // A 0.3 agent knows only the 0.3 card, whatever version the client asks for.
    ...(versions === '0.3'
      ? [
          (request: Request, _response: Response, next: NextFunction) => {
            delete request.headers['a2a-version'];
            next();
          },
          legacyAgentCardRouter({ agentCardProvider: handler }),
        ]
      : [agentCardHandler({ agentCardProvider: handler, legacyCompat })]),
  );
  app.use(
    JSONRPC_PATH,
    guard,
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat,
    }),
  );
  app.use(
    REST_PATH,
    guard,
    restHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat,
    }),
  );
  return {
    url,
    port,
    cardUrl: `${url}${CARD_PATH}`,
    card,
    close: async () => {
      grpcServer?.forceShutdown();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

function bindGrpc(server: grpc.Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
}
