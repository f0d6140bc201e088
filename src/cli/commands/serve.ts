import { Command } from 'commander';
import { startModelServer } from '../../models/serve.ts';
import type { ModelTask } from '../../models/types.ts';
import { int } from '../options.ts';
import { openModel } from '../../runner/setup.ts';

export function serveCommand(): Command {
  return new Command('serve')
    .description('expose a model over the documented HTTP JSON API (GET /info, POST /predict)')
    .requiredOption('-m, --model <spec>', 'model folder, hub id or built-in name')
    .option('-p, --port <n>', 'port (0 = any free port)', int('--port', 0), 8080)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--task <task>', 'model task, when config.json cannot tell')
    .action(async (opts: { model: string; port: number; host: string; task?: ModelTask }) => {
      const model = await openModel({ model: opts.model, task: opts.task });
      const server = await startModelServer(model, { port: opts.port, host: opts.host });
      process.stderr.write(`textstress: serving ${model.info.id} (${model.info.task}) at ${server.url}\n`);
      const stop = (): void => {
        void server.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
