import type { Channel } from './channel.js';
import type { OutputChannel, ReplyBatch } from './ports.js';

/** A conversation's messages went to a channel this deployment does not have. */
export class UnknownChannelError extends Error {
  override readonly name = 'UnknownChannelError';
  constructor(
    readonly channel: string,
    known: readonly string[],
  ) {
    super(
      `no channel "${channel}" delivers replies here (channels: ${known.join(', ') || 'none'})`,
    );
  }
}

/** Delivers each batch of replies through the output of the channel the conversation is on. */
export function outputRouter(channels: readonly Channel[]): OutputChannel {
  const outputs = new Map<string, OutputChannel>();
  for (const channel of channels) if (channel.output) outputs.set(channel.name, channel.output);
  return {
    deliver: async (batch: ReplyBatch) => {
      const output = outputs.get(batch.channel);
      if (!output) throw new UnknownChannelError(batch.channel, [...outputs.keys()]);
      await output.deliver(batch);
    },
  };
}
