// What every child-process entry of the e2e suites does once it has built its Nest app: listen on
// 127.0.0.1, print "READY <port>" for the parent to read, close cleanly on SIGTERM or SIGINT, and
// print a failed boot to stderr (with exit code 1) so the parent's error names it.
import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';

export function serveChild(build: () => Promise<INestApplication>, port = 0): void {
  const boot = async (): Promise<void> => {
    const app = await build();
    await app.listen(port, '127.0.0.1');
    process.stdout.write(`READY ${(app.getHttpServer().address() as AddressInfo).port}\n`);
    const stop = (): void => {
      void app.close().finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  };
  boot().catch((error: unknown) => {
    process.stderr.write(
      `boot failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
