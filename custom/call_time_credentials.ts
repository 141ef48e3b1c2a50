/**
 * Call-time credential hooks of the example assistant. Each runs before an outbound call and
 * returns metadata that travels with it (MCP `_meta`, A2A message metadata) but is never stored.
 */
import type { OutboundCallContext, OutboundCallResult } from 'switchboard/sdk';

/**
 * Demo credentials for the booking server. A real deployment reads them from a secret store
 * keyed by the conversation's sender id.
 */
export async function resolveBookingCredentials(
  context: OutboundCallContext,
): Promise<OutboundCallResult> {
  return { metadata: { 'x-customer-id': `customer-${context.senderId}` } };
}

/** Demo tenant metadata for the shopping agent. */
export function resolveShoppingMetadata(context: OutboundCallContext): OutboundCallResult {
  return { metadata: { tenant_id: 'demo-dealership', conversation: context.senderId } };
}
