/**
 * The example's car shopping agent, an A2A 0.3 agent built with the SDK: it asks for the model
 * (unless the conversation's `car_model` slot or the message names one) and the trim, each
 * question a task waiting for input; then it checks the stock, saying so, and completes the
 * task with the order as an artifact (text and data). A long order goes on after the request
 * that started it, so clients that registered a push URL get the outcome pushed.
 */
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { dataPart, textPart } from '../a2a/index.js';
import type { A2ASubAgent } from '../assistant/index.js';
import type { Logger } from '../resilience/index.js';
import { importOptional, sleep } from '../resilience/index.js';
import type { A2AHost } from './a2aHost.js';
import { agentMessage, messageData, messageText, publishCancelled, taskEvents } from './a2aTask.js';
import { CARS } from './catalog.js';
import { apiKeyCheck } from './mcpServers.js';

/** The trims every model comes in, with their surcharge. */
export const TRIMS: Readonly<Record<string, number>> = { Base: 0, Sport: 2500, Touring: 4000 };
const EURO = new Intl.NumberFormat('en', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});

/** How long checking the stock takes. */
export const STOCK_CHECK_MS = 1500;

interface Order {
  model?: string;
  trim?: string;
}

export interface ShoppingAgentOptions {
  readonly port: number;
  /** Credential values by the name the agent's `auth` references them with. */
  readonly secret: (name: string) => string | undefined;
  readonly stockCheckMs?: number;
  /** Where the agent logs (its push notifications); nothing when absent. */
  readonly logger?: Logger;
}

/** Serves the shopping agent the example's `car_shopping_agent` configuration points at. */
export async function startShoppingAgent(
  agent: Pick<A2ASubAgent, 'configuration'>,
  options: ShoppingAgentOptions,
): Promise<A2AHost> {
  const auth = agent.configuration.auth;
  // The SDK's express handlers serve it: express is an optional peer, for the demo alone.
  const { startA2AHost } = await importOptional(
    'express',
    'The demo A2A agent',
    ['express@5.3.0'],
    () => import('./a2aHost.js'),
  );
  return startA2AHost({
    name: 'Car shopping agent',
    description: 'Configures a car and places the order with the dealership.',
    executor: shoppingExecutor(options.stockCheckMs ?? STOCK_CHECK_MS),
    versions: '0.3',
    port: options.port,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(auth?.api_key ? { authorize: apiKeyCheck(auth, options) } : {}),
    skills: [
      { id: 'order_car', name: 'Order a car', description: 'Choose a trim and place an order.' },
    ],
  });
}

function shoppingExecutor(stockCheckMs: number): AgentExecutor {
  const orders = new Map<string, Order>();
  const cancelled = new Set<string>();
  let nextOrder = 1001;

  const ask = (bus: ExecutionEventBus, ctx: RequestContext, order: Order): boolean => {
    const task = taskEvents(bus, ctx);
    const models = CARS.map((c) => c.model).join(', ');
    const trims = Object.keys(TRIMS).join(', ');
    if (!order.model) {
      task.status(TaskState.TASK_STATE_INPUT_REQUIRED, `Which car would you like? ${models}.`);
      return true;
    }
    if (!order.trim) {
      task.status(
        TaskState.TASK_STATE_INPUT_REQUIRED,
        `Which trim of the ${order.model} would you like: ${trims}?`,
      );
      return true;
    }
    return false;
  };

  return {
    async execute(ctx, bus) {
      const message = ctx.userMessage;
      if (message.metadata?.health_check === true) {
        bus.publish({ kind: 'message', data: agentMessage([textPart('ready')], ctx) });
        bus.finished();
        return;
      }
      const task = taskEvents(bus, ctx);
      task.open();
      const said = messageText(message);
      const order = orders.get(ctx.taskId) ?? { ...modelOf(slotOf(message, 'car_model')) };
      const model = modelOf(said).model;
      if (model) order.model = model;
      const trim = Object.keys(TRIMS).find((t) => new RegExp(`\\b${t}\\b`, 'i').test(said));
      if (trim) order.trim = trim;
      orders.set(ctx.taskId, order);
      if (ask(bus, ctx, order)) {
        bus.finished();
        return;
      }
      const car = `${order.model} ${order.trim}`;
      task.status(TaskState.TASK_STATE_WORKING, `Checking the dealership’s stock for the ${car}…`);
      await sleep(stockCheckMs);
      orders.delete(ctx.taskId);
      if (cancelled.has(ctx.taskId)) {
        bus.finished();
        return;
      }
      const orderId = `A-${nextOrder++}`;
      const price = priceOf(order);
      task.artifact([
        textPart(
          `Your ${car} is ordered: order ${orderId}, ${EURO.format(price)}. The dealership will call you to arrange delivery.`,
        ),
        dataPart({ order_id: orderId, model: order.model, trim: order.trim, price }),
      ]);
      task.status(TaskState.TASK_STATE_COMPLETED);
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      cancelled.add(taskId);
      orders.delete(taskId);
      publishCancelled(bus, taskId);
    },
  };
}

/** The catalog model a text names, by its full name or its first word. */
function modelOf(text: unknown): Order {
  if (typeof text !== 'string') return {};
  const lower = text.toLowerCase();
  const car = CARS.find(
    (c) =>
      lower.includes(c.model.toLowerCase()) ||
      new RegExp(`\\b${c.model.split(' ')[0]}\\b`, 'i').test(text),
  );
  return car ? { model: car.model } : {};
}

/** A slot of the conversation, from the data part Switchboard sends. */
function slotOf(message: RequestContext['userMessage'], name: string): unknown {
  for (const data of messageData(message)) {
    const slots = data.slots;
    if (slots && typeof slots === 'object' && name in slots) {
      return (slots as Record<string, unknown>)[name];
    }
  }
  return undefined;
}

function priceOf(order: Order): number {
  const base = CARS.find((c) => c.model === order.model)?.price ?? 0;
  return base + (TRIMS[order.trim ?? ''] ?? 0);
}
