/**
 * The headless Chromium the browser tests drive (Debian's `chromium` package; CI installs it).
 * `SWITCHBOARD_CHROMIUM` names another executable. Without one, the browser tests are skipped,
 * and say so, unless `SWITCHBOARD_REQUIRE_BROWSER=1` (CI sets it): then they fail.
 */
import { accessSync, constants } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string | undefined {
  const named = process.env.SWITCHBOARD_CHROMIUM;
  for (const file of named ? [named] : CANDIDATES) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Whether the browser tests must run (CI): a missing browser is then a failure. */
export function browserRequired(): boolean {
  return process.env.SWITCHBOARD_REQUIRE_BROWSER === '1';
}
