// `platform serve` / `npm start`: boot, listen, and drain on SIGTERM/SIGINT.
import { createPlatform, type Platform } from '../boot.ts';
import { ConfigError } from '../config.ts';
import { forgetServer, recordServer } from './server.ts';

export async function serve(): Promise<void> {
  let platform: Platform | undefined;
  let signalled: string | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    signalled ??= signal;
    // A signal while booting is handled once the platform is up (below), so the
    // embedded database is always closed cleanly.
    if (!platform || stopping) return;
    stopping = true;
    platform.core.logger.info({ signal }, 'shutting down: draining requests and jobs');
    await forgetServer(platform.core.config.dataDir);
    try {
      await platform.stop();
      process.exit(0);
    } catch (err) {
      platform.core.logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const booted = await createPlatform();
  try {
    await booted.start();
  } catch (err) {
    // Close the database and queues, or their sockets keep the process alive.
    await booted.stop().catch(() => {});
    const { code, port, address } = err as { code?: string; port?: number; address?: string };
    if (code === 'EADDRINUSE') throw new ConfigError(`port ${port} on ${address} is already in use: set PORT (or HOST)`);
    throw err;
  }
  platform = booted;
  const { info } = platform.server;
  platform.core.logger.info({ uri: info.uri }, `platform listening on ${info.uri}`);
  // CLI commands that call the server find it here (core/cli/server.ts).
  await recordServer(platform.core.config.dataDir, info.uri)
    .catch((err: unknown) => platform!.core.logger.warn({ err }, 'the server\'s address could not be recorded for the CLI'));
  if (signalled) await shutdown(signalled);
}
