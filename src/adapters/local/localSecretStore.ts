import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import type { SecretStore } from '../../runtime/ports.js';
import { SecretNotFoundError, SecretStoreError } from '../secretErrors.js';

/** Where the local stack finds secrets. */
export interface LocalSecretStoreOptions {
  /** A JSON object of names to values, such as the project's `.secrets.json`; optional on disk. */
  readonly file?: string;
  /** Consulted after the file; an empty value counts as unset. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const SecretsFile = z.record(z.string(), z.string());

/** Secrets for the local stack: the secrets file first, then the environment. */
export class LocalSecretStore implements SecretStore {
  private fileSecrets: Promise<Record<string, string>> | undefined;

  constructor(private readonly options: LocalSecretStoreOptions) {}

  async get(name: string): Promise<string> {
    const fromFile = (await this.readFile(name))[name];
    if (fromFile !== undefined && fromFile !== '') return fromFile;
    const fromEnv = this.options.env[name];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    const where = this.options.file ? `${this.options.file} or the environment` : 'the environment';
    throw new SecretNotFoundError(name, where);
  }

  private readFile(name: string): Promise<Record<string, string>> {
    const file = this.options.file;
    if (file === undefined) return Promise.resolve({});
    this.fileSecrets ??= loadSecretsFile(file);
    return this.fileSecrets.catch((error: unknown) => {
      throw new SecretStoreError(name, error instanceof Error ? error.message : String(error));
    });
  }
}

async function loadSecretsFile(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message would quote the file, values included.
    throw new Error(`${file} is not valid JSON`);
  }
  const result = SecretsFile.safeParse(data);
  if (!result.success) {
    const keys = result.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
    throw new Error(`${file} must be an object of names to string values (check ${keys})`);
  }
  return result.data;
}
