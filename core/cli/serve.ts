// `platform serve` / `npm start`: boot, listen, and drain on SIGTERM/SIGINT.
import { createPlatform } from '../boot.ts';

export async function serve(): Promise<void> {
  const platform = await createPlatform();
  await platform.start();
  const { info } = platform.server;
  platform.core.logger.info({ uri: info.uri }, `platform listening on ${info.uri}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.core.logger.info({ signal }, 'shutting down: draining requests and jobs');
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
}
