import manifest from '../../package.json' with { type: 'json' };
import type { Channel } from '../runtime/index.js';

/** Switchboard's version, as package.json gives it; read once, when the module loads. */
export const SWITCHBOARD_VERSION: string = manifest.version;

/**
 * The oldest Switchboard version whose stored conversations this one reads (Rasa names the
 * oldest version whose models it loads). Raise it with a state version this build stops reading.
 */
export const MINIMUM_COMPATIBLE_VERSION = '0.1.0';

/** What `GET /version` answers, as Rasa's HTTP API does. */
export interface VersionView {
  readonly version: string;
  readonly minimum_compatible_version: string;
}

const VERSION: VersionView = {
  version: SWITCHBOARD_VERSION,
  minimum_compatible_version: MINIMUM_COMPATIBLE_VERSION,
};

/** `GET /version`: the running Switchboard's version, in Rasa's shape; no token needed, as in Rasa. */
export function versionChannel(): Channel {
  return {
    name: 'version',
    streams: false,
    routes: [
      {
        method: 'GET',
        path: '/version',
        authenticated: false,
        handle: async () => ({ status: 200, body: VERSION }),
      },
    ],
  };
}
