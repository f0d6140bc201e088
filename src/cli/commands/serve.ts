import { Command, InvalidArgumentError } from 'commander';
import { isPort, startModelServer } from '../../models/serve.ts';
import type { ModelTask } from '../../models/types.ts';
import { int } from '../options.ts';
import { openModel } from '../../runner/setup.ts';

function port(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !isPort(n)) throw new InvalidArgumentError('--port must be an integer from 0 to 65535 (0 picks a free port).');
  return n;
}

/** --allowed-host a,b --allowed-host c → [a, b, c]. */
function hostList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('expose a model over the documented HTTP JSON API (GET /info, POST /predict)')
    .requiredOption('-m, --model <spec>', 'model folder, hub id or built-in name')
    .option('-p, --port <n>', 'port, 0–65535 (0 = any free port)', port, 8080)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--allowed-host <name>', "also accept requests whose Host header is this name, e.g. a reverse proxy's (name or name:port; repeatable or comma-separated)", hostList, [])
    .option('--max-concurrent <n>', 'requests handled at once (reading bodies included); more are answered 503 with retry-after: 1', int('--max-concurrent', 1), 8)
    .option('--task <task>', 'model task, when config.json cannot tell')
    .action(async (opts: { model: string; port: number; host: string; allowedHost: string[]; maxConcurrent: number; task?: ModelTask }) => {
      const model = await openModel({ model: opts.model, task: opts.task });
      const server = await startModelServer(model, { port: opts.port, host: opts.host, allowedHosts: opts.allowedHost, maxConcurrent: opts.maxConcurrent });
      process.stderr.write(`textstress: serving ${model.info.id} (${model.info.task}) at ${server.url}\n`);
      const stop = (): void => {
        void server.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
