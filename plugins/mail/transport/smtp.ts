// The SMTP transport (nodemailer) built from SMTP_URL. The URL is operator
// configuration, not tenant input: the connection goes to the host it names,
// outside core.http's private-network guard (which is for tenant-chosen
// destinations). Its password never leaves this module: errors and the
// description are redacted (the password, its URL-encoded and base64 forms,
// the whole URL), and nodemailer's own logger stays off.
import type { Transporter } from 'nodemailer';

export interface MailEnvelope {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

export interface SmtpTransport {
  /** `smtp://host:port` or `smtps://host:port`, without credentials: what logs and the README may show. */
  readonly endpoint: string;
  /** Sends one message; rejects with a redacted Error. */
  send(message: MailEnvelope): Promise<void>;
  close(): void;
}

const MAX_ERROR_CHARS = 1000;

/** An SMTP_URL that cannot be used: the message names what is wrong, never the URL or its password. */
export class SmtpUrlError extends Error {}

interface Parsed {
  endpoint: string;
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

export function parseSmtpUrl(value: string): Parsed {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SmtpUrlError('SMTP_URL is not a URL (expected smtp://user:pass@host:587 or smtps://user:pass@host:465)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new SmtpUrlError(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  if (!url.hostname) throw new SmtpUrlError('SMTP_URL names no host');
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new SmtpUrlError('SMTP_URL has a malformed percent-encoding in its user or password');
    }
  };
  return {
    endpoint: `${url.protocol}//${url.host}`, host, port, secure,
    ...(url.username ? { user: decode(url.username), pass: decode(url.password) } : {}),
  };
}

/** `text` with every form of the hidden values replaced by `***`. */
export function redact(text: string, hidden: string[]): string {
  let out = text;
  for (const value of hidden) if (value.length >= 3) out = out.split(value).join('***');
  return out;
}

/** What must never appear in an error: the URL, the password as written, decoded and in base64 (AUTH LOGIN, AUTH PLAIN). */
function hiddenForms(url: string, parsed: Parsed): string[] {
  const forms = [url];
  if (parsed.pass) {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    forms.push(parsed.pass, encodeURIComponent(parsed.pass), b64(parsed.pass), b64(`\u0000${parsed.user ?? ''}\u0000${parsed.pass}`));
  }
  return forms.sort((a, b) => b.length - a.length);
}

export function createSmtpTransport(url: string, timeoutSeconds: number): SmtpTransport {
  const parsed = parseSmtpUrl(url);
  const hidden = hiddenForms(url, parsed);
  const timeout = timeoutSeconds * 1000;
  // nodemailer loads with the first message sent: a process that sends none (a CLI command) never loads it.
  let transporter: Promise<Transporter> | undefined;
  const open = async () => (await import('nodemailer')).createTransport({
    host: parsed.host, port: parsed.port, secure: parsed.secure,
    ...(parsed.user !== undefined ? { auth: { user: parsed.user, pass: parsed.pass ?? '' } } : {}),
    connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout,
    logger: false, debug: false,
  });
  return {
    endpoint: parsed.endpoint,
    async send(message) {
      const transport = await (transporter ??= open());
      try {
        await transport.sendMail({
          from: message.from, to: message.to, subject: message.subject, text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
      } catch (err) {
        const { code, message: text } = err as { code?: string; message?: string };
        const described = `${code ? `[${code}] ` : ''}${text ?? String(err)}`;
        throw new Error(redact(described, hidden).slice(0, MAX_ERROR_CHARS));
      }
    },
    close: () => void transporter?.then((transport) => transport.close(), () => {}),
  };
}
