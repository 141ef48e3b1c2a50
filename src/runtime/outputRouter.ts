import { SwitchboardError } from '../resilience/index.js';
import type { Channel } from './channel.js';
import type { ChannelWork, OutputChannel, ReplyBatch, TextPreview } from './ports.js';

/**
 * A conversation's messages went to a channel this deployment does not have.
 * Code `CHANNEL_UNKNOWN`.
 */
export class UnknownChannelError extends SwitchboardError {
  override readonly name = 'UnknownChannelError';
  override readonly code = 'CHANNEL_UNKNOWN';
  constructor(
    readonly channel: string,
    known: readonly string[],
  ) {
    super(
      `no channel "${channel}" delivers replies here (channels: ${known.join(', ') || 'none'})`,
    );
  }
}

/**
 * Delivers each batch of replies through the output of the channel the conversation is on, and
 * passes previews to the channels that stream.
 */
export function outputRouter(channels: readonly Channel[]): OutputChannel {
  const outputs = new Map<string, OutputChannel>();
  for (const channel of channels) if (channel.output) outputs.set(channel.name, channel.output);
  return {
    deliver: async (batch: ReplyBatch) => {
      const output = outputs.get(batch.channel);
      if (!output) throw new UnknownChannelError(batch.channel, [...outputs.keys()]);
      await output.deliver(batch);
    },
    preview: async (preview: TextPreview) => {
      await outputs.get(preview.channel)?.preview?.(preview);
    },
    work: async (job: ChannelWork, signal: AbortSignal) => {
      const output = outputs.get(job.channel);
      if (!output?.work) throw new UnknownChannelError(job.channel, [...outputs.keys()]);
      await output.work(job, signal);
    },
  };
}

/** Whether the channel named `name` shows previews: it streams and its output takes them. */
export function streamingChannels(channels: readonly Channel[]): (name: string) => boolean {
  const streaming = new Set(
    channels.filter((c) => c.streams && c.output?.preview).map((c) => c.name),
  );
  return (name) => streaming.has(name);
}
