import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

const serviceName = 'switchboard';

/** Structured JSON logs; each handler sets the correlation id of what it works on. */
export const logger = new Logger({ serviceName });
/** CloudWatch metrics in the embedded metric format, flushed after each invocation. */
export const metrics = new Metrics({ namespace: 'Switchboard', serviceName });

/** X-Ray tracing of a function: the tracer and its handler middleware. */
interface Tracing {
  readonly tracer: Tracer;
  readonly middleware: (options: { captureResponse?: boolean }) => middy.MiddlewareObj;
}

/**
 * X-Ray tracing, loaded only when the deployment turns it on (`tracing` in the CDK context). The
 * build makes `process.env.SWITCHBOARD_TRACING` a constant, so that a bundle without tracing
 * leaves the X-Ray SDK out; unbundled (tests, local runs) the variable is read as set.
 */
async function loadTracing(): Promise<Tracing | undefined> {
  if (process.env.SWITCHBOARD_TRACING === 'true') {
    const [{ Tracer }, { captureLambdaHandler }] = await Promise.all([
      import('@aws-lambda-powertools/tracer'),
      import('@aws-lambda-powertools/tracer/middleware'),
    ]);
    const tracer = new Tracer({ serviceName });
    return { tracer, middleware: (options) => captureLambdaHandler(tracer, options) };
  }
  return undefined;
}

const tracing = await loadTracing();

/** An AWS SDK client, traced when tracing is on. */
export function traced<T>(client: T): T {
  return tracing ? tracing.tracer.captureAWSv3Client(client) : client;
}

/**
 * Wraps a handler with the Powertools middlewares: tracing when on, Lambda context in logs,
 * metrics. A streaming handler (`streamifyResponse`) answers `{statusCode, headers, body}` with a
 * readable body, which middy streams; its response is not traced, as it is a stream.
 */
export function lambdaHandler<TEvent, TResult>(
  handler: (event: TEvent, context: Context) => Promise<TResult>,
  options: { streamifyResponse?: boolean } = {},
) {
  const streaming = options.streamifyResponse === true;
  const wrapped = middy(handler, streaming ? { streamifyResponse: true } : {});
  if (tracing) wrapped.use(tracing.middleware(streaming ? { captureResponse: false } : {}));
  return wrapped
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
}
