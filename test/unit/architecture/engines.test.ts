import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

interface LockedPackage {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
  readonly peer?: boolean;
  readonly optional?: boolean;
  readonly engines?: { readonly node?: string } | readonly string[];
}

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

describe('the package’s production dependencies', () => {
  it('all run on the oldest Node the package says it supports', () => {
    const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !entry.dev && !entry.devOptional)
      .flatMap(([name, entry]) => {
        const engines = entry.engines;
        const range =
          engines && !Array.isArray(engines) ? (engines as { node?: string }).node : undefined;
        return range && !semver.satisfies(oldest, range) ? [`${name} wants Node ${range}`] : [];
      });

    expect(oldest).toBe('20.19.0');
    expect(refusing).toEqual([]);
  });
});
