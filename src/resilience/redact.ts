/**
 * Credential redaction. A peer may echo what it was sent (a key it rejects, a header, the URL
 * with its token) in an error message; those texts reach logs, error results and the
 * conversation's state, so every credential value is replaced in them first, together with the
 * forms it travels in (percent-encoded in a URL or a form, escaped in JSON).
 */

/** What a credential value becomes in a text. */
export const REDACTED = '[redacted]';
/** Values shorter than this are left alone: they would match ordinary words. */
export const MIN_SECRET_CHARS = 4;
/** Reasons are kept short: they reach logs, error results and the conversation's state. */
export const MAX_REASON_CHARS = 300;

/** `text` with every one of `secrets` (and the forms it is sent in) replaced by `[redacted]`. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_CHARS) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first: a secret that contains another is replaced whole.
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .reduce((out, form) => out.replaceAll(form, REDACTED), text);
}

/**
 * The credential values a peer's requests carried, remembered as they are sent (the newest
 * `keep`: an OAuth token is renewed now and then), to be taken out of what the peer says.
 */
export class Redactor {
  private readonly sent: string[] = [];

  constructor(private readonly keep = 4) {}

  /** Remembers `value` as sent and returns it. */
  remember(value: string): string {
    if (value.length >= MIN_SECRET_CHARS && !this.sent.includes(value)) {
      this.sent.push(value);
      if (this.sent.length > this.keep) this.sent.shift();
    }
    return value;
  }

  /** `text` without any remembered value. */
  redact(text: string): string {
    return redact(text, this.sent);
  }
}

/**
 * A failure's reason as it may be kept: credentials removed first (so that cutting cannot leave
 * part of one behind), then cut to `MAX_REASON_CHARS`.
 */
export function safeReason(text: string, redactText: (text: string) => string): string {
  const clean = redactText(text);
  return clean.length <= MAX_REASON_CHARS ? clean : `${clean.slice(0, MAX_REASON_CHARS)}…`;
}
