import { describe, expect, it } from 'vitest';
import type { Assistant } from '../../../src/assistant/index.js';
import { startPeers } from '../../../src/cli/peers.js';

const assistant = { projectDir: '/nowhere', mcpServers: {}, agents: {} } as unknown as Assistant;

describe('the peers a command starts', () => {
  it('leave the demo peers out when SWITCHBOARD_DEMO_PEERS=off, whichever command asks', async () => {
    const peers = await startPeers({
      assistant,
      env: { SWITCHBOARD_DEMO_PEERS: 'OFF' },
      cwd: '/nowhere',
      demo: true,
      modules: [],
    });
    expect(peers.started).toEqual([]);
    await peers.close();
  });
});
