import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { round } from './harness.js';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HELP_RUNS = 7;

/** Kilobytes a folder takes on disk (`du -sk`). */
async function diskKb(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', dir]);
  return Number(stdout.split(/\s/)[0]);
}

/** Installs `specs` into a new empty folder from the npm registry; answers its node_modules' size. */
async function installed(specs: readonly string[], omitDev: boolean) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-install-bench-'));
  await run(
    'npm',
    ['install', ...(omitDev ? ['--omit=dev'] : []), '--no-audit', '--no-fund', ...specs],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  );
  return { dir, megabytes: round((await diskKb(path.join(dir, 'node_modules'))) / 1024, 1) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * What installing Switchboard costs a user: the package packed as `npm pack` does, installed
 * with `npm install --omit=dev` into an empty folder from the npm registry (which this benchmark
 * needs), `node_modules` measured with `du`; the optional peers apart (the local emulators and
 * the demo's web server; the deploy tooling); and `switchboard --help` as the installed binary
 * answers it (median of seven fresh processes).
 */
export async function installBenchmark(): Promise<Record<string, unknown>> {
  const packDir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', packDir], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as { filename: string; size: number; unpackedSize: number }[];
  if (!pack) throw new Error('npm pack wrote no tarball');
  const tarball = path.join(packDir, pack.filename);
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const peers = Object.entries(manifest.peerDependencies ?? {}).map(([n, v]) => `${n}@${v}`);
  const local = peers.filter((p) => /^(dynalite|fauxqs|express)@/.test(p));
  const deploy = peers.filter((p) => !local.includes(p));
  const runtime = await installed([tarball], true);
  const help: number[] = [];
  try {
    const bin = path.join(runtime.dir, 'node_modules', '.bin', 'switchboard');
    for (let i = 0; i < HELP_RUNS; i++) {
      const start = performance.now();
      await run(bin, ['--help'], { cwd: runtime.dir });
      help.push(performance.now() - start);
    }
    const localTools = await installed(local, false);
    const deployTools = await installed(deploy, false);
    await Promise.all(
      [localTools, deployTools].map((i) => rm(i.dir, { recursive: true, force: true })),
    );
    return {
      tarball: {
        kilobytes: round(pack.size / 1024, 1),
        unpackedKilobytes: round(pack.unpackedSize / 1024, 1),
      },
      runtimeInstallMegabytes: runtime.megabytes,
      localPeers: { packages: local, megabytes: localTools.megabytes },
      deployTooling: { packages: deploy, megabytes: deployTools.megabytes },
      helpMedianSeconds: round(median(help) / 1000, 2),
    };
  } finally {
    await rm(runtime.dir, { recursive: true, force: true });
    await rm(packDir, { recursive: true, force: true });
  }
}
