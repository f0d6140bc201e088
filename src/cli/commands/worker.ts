/** `textstress worker --queue redis://…`: a queue worker (src/queue/worker.ts) until SIGINT / SIGTERM. */
import { Command } from 'commander';
import type { Registry } from '../../recipes/registry/registry.ts';
import { addFlags, int } from '../options.ts';
import { terminalSafe } from '../../util/terminal.ts';

export function workerCommand(registry: Registry): Command {
  const cmd = new Command('worker').description(
    'take blocks of examples from a Redis queue (runs started with --queue) and store their results; start as many as you like',
  );
  return addFlags(cmd, { queue: { help: 'redis://host:port of the queue', required: true } })
    .option(
      '--jobs <n>',
      'jobs this process runs at once (BullMQ advises more processes rather than more jobs per process for CPU work)',
      int('--jobs', 1),
      1,
    )
    .option('--lock-ms <ms>', 'a job whose worker died goes to another worker after about this long', int('--lock-ms', 1000), 30000)
    .action(async (opts: { queue: string; jobs: number; lockMs: number }) => {
      const { startWorker } = await import('../../queue/worker.ts');
      // Lines quote what Redis holds (run ids, recipes, errors of other processes): never raw.
      const log = (line: string): void => void process.stderr.write(`textstress: ${terminalSafe(line, { keepLayout: true })}\n`);
      const worker = await startWorker(opts.queue, { registry, concurrency: opts.jobs, lockMs: opts.lockMs, log });
      await new Promise<void>(() => {
        let stopping = false;
        const stop = (): void => {
          // A second signal: stop now (the jobs in hand go to another worker when their lock lapses).
          if (stopping) process.exit(1);
          stopping = true;
          log('stopping: finishing the jobs in hand');
          // close() is bounded (src/queue/worker.ts); the exit ends what a Redis that is gone leaves reconnecting.
          void worker.close().finally(() => process.exit(0));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
